import { EventEmitter } from 'node:events';
import type { RequestLogEntry } from '../engines/proxy-engine/traffic/request-entry.js';

/** What the app tells its windows, tray and `/api/events` listeners (decisions §7). */
export interface AppEventMap {
  'proxy-state': { state: string; running: boolean; port?: number; pid?: number; message?: string };
  'bridge-state': { state: string; running: boolean; port?: number; pid?: number; message?: string };
  /** One finished proxy request (the request log's entry, priced). */
  'proxy-request': RequestLogEntry & { costUSD: number | null };
  'usage-refreshed': { timestamp: number };
  anomaly: { type: string; date: string; message: string };
  'config-changed': { section: string };
  /** Profiles changed: default, preset applied, routed through the proxy, keys followed (issue 18). */
  profiles: { reason: string; profiles: string[] };
  /** A subscription account or a sign-in changed (decisions §4.1): `reason` says how. */
  account: { reason: string; provider: string; signInId?: string; status?: string; account?: unknown; error?: string };
  /** Download progress of a managed CLIProxyAPI install (decisions §4.1); total null when unknown. */
  'cliproxy-install': { backend: string; version: string; received: number; total: number | null };
  /** The app is shutting down: long-lived responses end now instead of being cut. Not streamed. */
  closing: Record<string, never>;
}

export type AppEventName = keyof AppEventMap;

export class AppEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  emit<K extends AppEventName>(name: K, payload: AppEventMap[K]): void {
    this.emitter.emit(name, payload);
  }

  on<K extends AppEventName>(name: K, listener: (payload: AppEventMap[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /** Listeners of one event, or of all events; lets tests prove that subscribers clean up. */
  listenerCount(name?: AppEventName): number {
    const names = name ? [name] : (this.emitter.eventNames() as AppEventName[]);
    return names.reduce((sum, n) => sum + this.emitter.listenerCount(n), 0);
  }
}
