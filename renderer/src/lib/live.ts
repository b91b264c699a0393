import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Live state without waste: one shared `EventSource('/api/events')` while the page is visible,
 * closed while it is hidden. Views that need fresh data subscribe to event names; when the
 * event stream is unavailable they fall back to a poll that also runs only while visible.
 */
export type LiveEvent = 'proxy-state' | 'bridge-state' | 'usage-refreshed' | 'anomaly' | 'config-changed' | 'proxy-request' | 'profiles' | 'account' | 'cliproxy-install';
const EVENT_NAMES: LiveEvent[] = ['proxy-state', 'bridge-state', 'usage-refreshed', 'anomaly', 'config-changed', 'proxy-request', 'profiles', 'account', 'cliproxy-install'];

type Listener = (name: LiveEvent, data: unknown) => void;
const listeners = new Set<Listener>();
const statusListeners = new Set<(connected: boolean) => void>();
let source: EventSource | null = null;
let connected = false;
/** After the stream fails, wait before retrying so a server without `/api/events` is not hammered. */
let retryAt = 0;
const RETRY_MS = 30_000;

function setConnected(value: boolean): void {
  if (connected === value) return;
  connected = value;
  for (const l of statusListeners) l(value);
}

function open(): void {
  if (source || typeof EventSource === 'undefined' || Date.now() < retryAt) return;
  const es = new EventSource('/api/events');
  source = es;
  es.onopen = () => setConnected(true);
  es.onerror = () => {
    // Closed for good (e.g. 404 or wrong type): give up until the retry time, polling meanwhile.
    if (es.readyState === EventSource.CLOSED) {
      close();
      retryAt = Date.now() + RETRY_MS;
    } else setConnected(false);
  };
  for (const name of EVENT_NAMES) {
    es.addEventListener(name, (ev) => {
      let data: unknown = undefined;
      try {
        data = JSON.parse((ev as MessageEvent<string>).data);
      } catch {
        // A non-JSON payload is still a signal that something changed.
      }
      for (const l of listeners) l(name, data);
    });
  }
}

function close(): void {
  source?.close();
  source = null;
  setConnected(false);
}

function syncWithVisibility(): void {
  if (document.visibilityState === 'visible' && (listeners.size > 0 || statusListeners.size > 0)) open();
  else close();
}
document.addEventListener('visibilitychange', syncWithVisibility);

/** True while the document is visible; re-renders on change. */
export function useVisible(): boolean {
  const [visible, setVisible] = useState(document.visibilityState === 'visible');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

/**
 * Calls `reload` when one of `events` arrives, when the page becomes visible again, and, only
 * while the event stream is down and the page visible, every `fallbackMs`.
 */
export function useLiveReload(events: LiveEvent[], reload: () => void, fallbackMs = 5000): void {
  const visible = useVisible();
  const [live, setLive] = useState(connected);
  const latest = useRef(reload);
  latest.current = reload;
  const key = events.join(',');

  useEffect(() => {
    const onEvent: Listener = (name) => {
      if (key.split(',').includes(name)) latest.current();
    };
    listeners.add(onEvent);
    statusListeners.add(setLive);
    syncWithVisibility();
    setLive(connected);
    return () => {
      listeners.delete(onEvent);
      statusListeners.delete(setLive);
    };
  }, [key]);

  const wasVisible = useRef(visible);
  useEffect(() => {
    if (visible && !wasVisible.current) latest.current();
    wasVisible.current = visible;
  }, [visible]);

  useEffect(() => {
    if (!visible || live || fallbackMs <= 0) return;
    // Checked on each tick too: the effect that stops this timer runs a frame after hiding.
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, fallbackMs);
    return () => clearInterval(timer);
  }, [visible, live, fallbackMs]);
}

/** Calls `handler` with the payload of each `event` (e.g. a proxy that failed, with its message). */
export function useLiveEvent(event: LiveEvent, handler: (data: unknown) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const onEvent: Listener = (name, data) => {
      if (name === event) latest.current(data);
    };
    listeners.add(onEvent);
    syncWithVisibility();
    return () => void listeners.delete(onEvent);
  }, [event]);
}

/** A clock that ticks every `ms` while visible (countdowns); frozen while hidden. */
export function useNow(ms = 1000): number {
  const visible = useVisible();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!visible) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [visible, ms]);
  return now;
}

/**
 * `useLiveReload` for busy events (one `proxy-request` per finished request): reloads at most
 * once per `minGapMs`, trailing, so a burst of a thousand requests is one or two reads.
 */
export function useThrottledLiveReload(events: LiveEvent[], reload: () => void, minGapMs: number, fallbackMs = 0): void {
  const latest = useRef(reload);
  latest.current = reload;
  const state = useRef<{ last: number; timer: ReturnType<typeof setTimeout> | null }>({ last: 0, timer: null });
  useEffect(() => () => void (state.current.timer && clearTimeout(state.current.timer)), []);
  const throttled = () => {
    const s = state.current;
    if (s.timer) return;
    const wait = Math.max(0, s.last + minGapMs - Date.now());
    s.timer = setTimeout(() => {
      s.timer = null;
      s.last = Date.now();
      latest.current();
    }, wait);
  };
  useLiveReload(events, throttled, fallbackMs);
}
