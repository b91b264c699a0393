import { Router, type Request, type Response } from 'express';
import type { AppEventName, AppEvents } from '../services/events.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';

/** The events `/api/events` forwards, in the names the window and other local clients listen for. */
export const STREAMED_EVENTS: readonly AppEventName[] = ['proxy-state', 'proxy-request', 'bridge-state', 'usage-refreshed', 'anomaly', 'config-changed', 'profiles', 'cliproxy-install'];

export interface EventStreamOptions {
  /** Comment line interval that keeps proxies and idle timers from closing the stream (15-25 s). */
  heartbeatMs: number;
  /** Reconnect delay suggested to EventSource clients. */
  retryMs: number;
}

export const DEFAULT_EVENT_STREAM: EventStreamOptions = { heartbeatMs: 20_000, retryMs: 3_000 };

/** `GET /api/events`: Server-Sent Events so the window, the tray and other local clients need not poll. */
export function createEventsRouter(deps: RouterDeps, options: EventStreamOptions = DEFAULT_EVENT_STREAM): Router {
  const router = Router();
  const route = routeOn(router, deps.registry, 'events');
  route({
    method: 'get',
    path: '/api/events',
    summary: `Server-Sent Events: ${STREAMED_EVENTS.join(', ')} (JSON data); heartbeat comments`,
    responseKind: 'event-stream',
    handler: ({ req, res }) => streamEvents(req, res, deps.services.ctx.events, options),
  });
  return router;
}

function streamEvents(req: Request, res: Response, events: AppEvents, options: EventStreamOptions): undefined {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);
  res.write(`retry: ${options.retryMs}\n: connected\n\n`);
  const unsubscribe = STREAMED_EVENTS.map((name) => events.on(name, (payload) => res.write(formatEvent(name, payload))));
  // A clean end on shutdown: clients see the stream finish and reconnect after `retry`.
  unsubscribe.push(events.on('closing', () => res.end()));
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), options.heartbeatMs);
  // Ours must never keep the process alive on its own (shutdown ends the stream anyway).
  heartbeat.unref();
  res.on('close', () => {
    clearInterval(heartbeat);
    for (const off of unsubscribe) off();
  });
  return undefined;
}

/** One SSE message; JSON never contains a raw newline, so `data:` is a single line. */
export function formatEvent(name: string, payload: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}
