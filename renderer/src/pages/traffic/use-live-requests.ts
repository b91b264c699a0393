import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { RequestEntry } from '../../api-types.js';
import { useLiveEvent, useLiveReload } from '../../lib/live.js';
import { asEntry, matchesFilters, mergeNewest, toQuery, type TrafficFilters } from './traffic-format.js';

export const ROW_LIMIT = 200;

export interface LiveRequests {
  rows: RequestEntry[];
  /** Arrived while paused, newest first; shown on resume. */
  held: RequestEntry[];
  total: number | null;
  loaded: boolean;
  loading: boolean;
  error: unknown;
  paused: boolean;
  setPaused: (paused: boolean) => void;
  /** Shows the held rows on top and follows live again. */
  resume: () => void;
  reload: () => Promise<void>;
}

/**
 * The newest requests matching `filters`: one read of GET /api/proxy/requests, then each
 * `proxy-request` event on top. While paused (the user scrolled down to read) new rows are held
 * back so nothing moves under the reader. A reload after the stream was away (hidden page, no
 * stream: poll) brings missed rows the same way.
 */
export function useLiveRequests(filters: TrafficFilters): LiveRequests {
  const [rows, setRows] = useState<RequestEntry[]>([]);
  const [held, setHeld] = useState<RequestEntry[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(undefined);
  const [paused, setPausedState] = useState(false);
  const pausedRef = useRef(false);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const generation = useRef(0);
  const filterKey = `${filters.status}\n${filters.model}\n${filters.upstream}`;
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  const load = useCallback(async (replace: boolean) => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const answer = await api.proxyRequests(toQuery(filtersRef.current, ROW_LIMIT));
      if (mine !== generation.current) return;
      setError(undefined);
      setTotal(answer.total);
      if (replace || !pausedRef.current) {
        setRows(answer.requests);
        if (replace) setHeld([]);
      } else {
        const known = new Set(rowsRef.current.map((r) => r.id));
        const newest = rowsRef.current[0]?.time ?? 0;
        const fresh = answer.requests.filter((r) => !known.has(r.id) && r.time >= newest);
        setHeld((h) => mergeNewest(fresh, h, ROW_LIMIT));
      }
      setLoaded(true);
    } catch (err) {
      if (mine === generation.current) setError(err);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    pausedRef.current = false;
    setPausedState(false);
    void load(true);
  }, [filterKey]);

  // Back from a hidden tab, or no event stream: read again (missed rows are held while paused).
  useLiveReload([], () => void load(false), 10_000);

  useLiveEvent('proxy-request', (data) => {
    const entry = asEntry(data);
    if (!entry || !matchesFilters(entry, filtersRef.current)) return;
    setTotal((t) => (t === null ? t : t + 1));
    if (pausedRef.current) setHeld((h) => mergeNewest([entry], h, ROW_LIMIT));
    else setRows((r) => mergeNewest([entry], r, ROW_LIMIT));
  });

  const setPaused = useCallback((value: boolean) => {
    pausedRef.current = value;
    setPausedState(value);
  }, []);

  const heldRef = useRef(held);
  heldRef.current = held;
  const resume = useCallback(() => {
    const waiting = heldRef.current;
    if (waiting.length) setRows((r) => mergeNewest(waiting, r, ROW_LIMIT));
    setHeld([]);
    setPaused(false);
  }, [setPaused]);

  return { rows, held, total, loaded, loading, error, paused, setPaused, resume, reload: () => load(true) };
}
