import path from 'node:path';

/**
 * Where the managed CLIProxyAPI keeps its run files under `{config_dir}/proxy/`, named once for
 * the app (which writes them) and the built-in engine (which reads them to forward agy, kiro and
 * gemini traffic). The engine knows `proxy/` as the folder of its own config file.
 */
export function cliproxyRunDir(proxyDir: string): string {
  return path.join(proxyDir, 'cliproxy');
}

/** The generated config: `port` and `api-keys[0]` are what the engine forwards with. */
export function cliproxyConfigFile(proxyDir: string): string {
  return path.join(cliproxyRunDir(proxyDir), 'config.yaml');
}

/** The supervisor's record of the running binary: present exactly while it runs (or was adopted). */
export function cliproxyStateFile(proxyDir: string): string {
  return path.join(cliproxyRunDir(proxyDir), 'state.json');
}

/**
 * Present while the app starts or restarts the binary (`{since: ms}`): the engine then waits for a
 * refused connection to open instead of answering "not running" at once.
 */
export function cliproxyStartingFile(proxyDir: string): string {
  return path.join(cliproxyRunDir(proxyDir), 'starting.json');
}

/** `proxy/bin/version.json`, written by the installer: present when the binary is installed. */
export function cliproxyVersionFile(proxyDir: string): string {
  return path.join(proxyDir, 'bin', 'version.json');
}

/** A starting marker older than this is a leftover of a crashed app, not a start under way. */
export const CLIPROXY_STARTING_STALE_MS = 60_000;
