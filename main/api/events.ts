import { Router, type Request, type Response } from 'express';
import type { AppEventName } from '../services/events.js';
import { E } from './error-texts.js';
import { ApiError } from './errors.js';
import { EventHub, type EventHubLimits } from './event-hub.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';

/** The events `/api/events` forwards, in the names the window and other local clients listen for. */
export const STREAMED_EVENTS: readonly AppEventName[] = ['proxy-state', 'proxy-request', 'bridge-state', 'usage-refreshed', 'anomaly', 'config-changed', 'profiles', 'account', 'cliproxy-install'];

export interface EventStreamOptions extends EventHubLimits {
  /** Comment line interval that keeps proxies and idle timers from closing the stream (15-25 s). */
  heartbeatMs: number;
  /** Reconnect delay suggested to EventSource clients. */
  retryMs: number;
}

/**
 * 32 streams (the window, a few tabs, scripts: a handful in real use) of at most 256 KiB waiting
 * each (~400 request events): a stalled client costs at most 8 MiB in all. docs/hardening.md.
 */
export const DEFAULT_EVENT_STREAM: EventStreamOptions = { heartbeatMs: 20_000, retryMs: 3_000, maxSubscribers: 32, maxBufferedBytes: 256 * 1024 };

/** `GET /api/events`: Server-Sent Events so the window, the tray and other local clients need not poll. */
export function createEventsRouter(deps: RouterDeps, options: EventStreamOptions = DEFAULT_EVENT_STREAM): Router {
  const router = Router();
  const route = routeOn(router, deps.registry, 'events');
  const hub = new EventHub(deps.services.ctx.events, STREAMED_EVENTS, options, formatEvent);
  route({
    method: 'get',
    path: '/api/events',
    summary: `Server-Sent Events: ${STREAMED_EVENTS.join(', ')} (JSON data); heartbeat comments`,
    responseKind: 'event-stream',
    handler: ({ req, res }) => streamEvents(req, res, hub, options),
  });
  return router;
}

function streamEvents(req: Request, res: Response, hub: EventHub, options: EventStreamOptions): undefined {
  if (hub.full) throw new ApiError(503, E.tooManyEventStreams, `At most ${options.maxSubscribers} event streams may be open at once; close one and try again`);
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);
  res.write(`retry: ${options.retryMs}\n: connected\n\n`);
  hub.add(res);
  const heartbeat = setInterval(() => hub.write(res, ': heartbeat\n\n'), options.heartbeatMs);
  // Ours must never keep the process alive on its own (shutdown ends the stream anyway).
  heartbeat.unref();
  res.on('close', () => clearInterval(heartbeat));
  return undefined;
}

/** One SSE message; JSON never contains a raw newline, so `data:` is a single line. */
export function formatEvent(name: string, payload: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}
