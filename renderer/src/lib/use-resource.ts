import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Fetches again; keeps showing the last data meanwhile so views do not flicker. */
  reload: () => Promise<void>;
}

/** Loads `fetcher()` on mount and whenever `deps` change; stale answers are dropped. */
export function useResource<T>(fetcher: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; error: unknown; loading: boolean }>({ error: undefined, loading: true });
  const generation = useRef(0);
  const latest = useRef(fetcher);
  latest.current = fetcher;

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await latest.current();
      if (mine === generation.current) setState({ data, error: undefined, loading: false });
    } catch (error) {
      if (mine === generation.current) setState((s) => ({ data: s.data, error, loading: false }));
    }
  }, []);

  useEffect(() => {
    void reload();
    // Callers list what the fetcher depends on; the fetcher itself is read through a ref.
  }, deps);

  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** A fetch that waits for a precondition: stays "loading" until deps change and a real fetch runs. */
export function pending<T>(): Promise<T> {
  return new Promise<T>(() => {});
}
