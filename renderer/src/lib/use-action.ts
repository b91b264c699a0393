import { useRef, useState } from 'preact/hooks';

export interface Action<A extends unknown[], R> {
  run: (...args: A) => Promise<R | undefined>;
  busy: boolean;
  error: unknown;
  result: R | undefined;
  clear: () => void;
}

/** Runs a write with busy/error/result state; a second click while busy is ignored. */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>): Action<A, R> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [result, setResult] = useState<R | undefined>(undefined);
  const running = useRef(false);
  const run = async (...args: A): Promise<R | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      const r = await fn(...args);
      setResult(() => r);
      return r;
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { run, busy, error, result, clear: () => (setError(undefined), setResult(undefined)) };
}
