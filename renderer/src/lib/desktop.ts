import { useEffect, useState } from 'preact/hooks';

/** What the Electron preload exposes as `window.switchboard`; absent in a plain browser. */
interface DesktopBridge {
  version(): Promise<string>;
  openExternal(url: string): Promise<boolean>;
}

export function desktop(): DesktopBridge | undefined {
  return (window as unknown as { switchboard?: DesktopBridge }).switchboard;
}

/** The app version inside the desktop window, else undefined. */
export function useAppVersion(): string | undefined {
  const [version, setVersion] = useState<string | undefined>(undefined);
  useEffect(() => {
    desktop()
      ?.version()
      .then(setVersion)
      .catch(() => undefined);
  }, []);
  return version;
}
