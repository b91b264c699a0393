import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventsRouter, DEFAULT_EVENT_STREAM, type EventStreamOptions } from '../../../main/api/events.js';
import { RouteRegistry } from '../../../main/api/route.js';
import { silentLogger } from '../../../main/infra/logger.js';
import { AppEvents } from '../../../main/services/events.js';
import type { Services } from '../../../main/services/index.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openSse, type SseClient } from '../../helpers/sse.js';

/** `/api/events` against clients that stop reading, and too many of them (issue 27 point 10). */
let app: TestApp | undefined;
const clients: SseClient[] = [];
const sockets: net.Socket[] = [];
const servers: http.Server[] = [];

afterEach(async () => {
  clients.splice(0).forEach((c) => c.close());
  sockets.splice(0).forEach((s) => s.destroy());
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await app?.stop();
  app = undefined;
});

async function eventually(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The events router alone on a plain server, with every server-side socket in view. */
async function hubServer(options: EventStreamOptions): Promise<{ events: AppEvents; port: number; serverSockets: net.Socket[] }> {
  const events = new AppEvents();
  const services = { ctx: { events } } as unknown as Services;
  const server = http.createServer(express().use(createEventsRouter({ services, registry: new RouteRegistry(), logger: silentLogger }, options)));
  const serverSockets: net.Socket[] = [];
  server.on('connection', (s) => serverSockets.push(s));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { events, port: (server.address() as AddressInfo).port, serverSockets };
}

/** A client that asks for the stream and then never reads a byte. */
async function stalledClient(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  await new Promise((r) => socket.once('connect', r));
  socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  socket.pause();
  return socket;
}

const entry = (i: number) => ({
  id: `e-${i}`,
  time: i,
  format: 'anthropic' as const,
  method: 'POST',
  path: '/v1/messages',
  modelRequested: 'claude-sonnet-4-5',
  modelSent: 'claude-sonnet-4-5',
  upstream: 'up',
  keyIndex: 0,
  status: 502,
  outcome: 'error' as const,
  latencyMs: 10,
  ttfbMs: null,
  tokens: null,
  session: null,
  error: 'x'.repeat(2000), // an upstream's error text, cut at 2 KiB by the engine
  errorLog: null,
  costUSD: null,
});

describe('stalled event subscribers', () => {
  it('are dropped once their backlog passes the bound; a reading subscriber gets every event; memory stays bounded', async () => {
    const { events, port, serverSockets } = await hubServer(DEFAULT_EVENT_STREAM);
    const STALLED = 12;
    for (let i = 0; i < STALLED; i++) await stalledClient(port);
    const reader = await openSse(`http://127.0.0.1:${port}/api/events`);
    clients.push(reader);
    await eventually(() => events.listenerCount('proxy-request') > 0 && serverSockets.length === STALLED + 1);
    const bound = DEFAULT_EVENT_STREAM.maxBufferedBytes;
    let peak = 0;
    const EVENTS = 3000;
    for (let i = 0; i < EVENTS; i += 50) {
      for (let k = i; k < i + 50; k++) events.emit('proxy-request', entry(k));
      const waiting = serverSockets.reduce((n, s) => n + s.writableLength, 0);
      peak = Math.max(peak, waiting);
      // Without a bound this is ~2 KiB × events × stalled clients (70 MiB by the end).
      expect(waiting).toBeLessThanOrEqual((STALLED + 1) * bound);
      await reader.waitFor((c) => c.events.length >= i + 50);
    }
    expect(reader.events).toHaveLength(EVENTS);
    expect(reader.events.at(-1)!.data).toContain('"id":"e-2999"');
    // Every stalled client was let go (its socket destroyed, what waited freed); the reader stays.
    await eventually(() => serverSockets.filter((s) => s.destroyed).length === STALLED);
    expect(serverSockets.reduce((n, s) => n + s.writableLength, 0)).toBeLessThan(bound);
    expect(peak).toBeLessThanOrEqual((STALLED + 1) * bound);
  });

  it('a dropped subscriber can reconnect and gets the events from then on', async () => {
    const { events, port, serverSockets } = await hubServer({ ...DEFAULT_EVENT_STREAM, maxBufferedBytes: 16 * 1024 });
    const stalled = await stalledClient(port);
    await eventually(() => events.listenerCount('proxy-request') === 1);
    for (let k = 0; k < 400; k++) events.emit('proxy-request', entry(k));
    await eventually(() => serverSockets[0]!.destroyed);
    stalled.destroy();
    await eventually(() => events.listenerCount() === 0);
    const again = await openSse(`http://127.0.0.1:${port}/api/events`);
    clients.push(again);
    await again.waitFor((c) => c.comments.includes('connected'));
    events.emit('proxy-request', entry(401));
    await again.waitFor((c) => c.events.length === 1);
  });
});

describe('how many event subscribers', () => {
  it('answers 503 with a clear JSON error past the cap, and takes a new one when a stream closes', async () => {
    app = await startTestApp();
    const open: SseClient[] = [];
    for (let i = 0; i < DEFAULT_EVENT_STREAM.maxSubscribers; i++) open.push(await openSse(`${app.url}/api/events`));
    clients.push(...open);
    expect(open.every((c) => c.status === 200)).toBe(true);
    const refused = await app.request('GET', '/api/events');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({ error: 'Too many event streams', message: `At most ${DEFAULT_EVENT_STREAM.maxSubscribers} event streams may be open at once; close one and try again` });
    open[0]!.close();
    let next: SseClient | undefined;
    const until = Date.now() + 30_000;
    for (;;) {
      next = await openSse(`${app.url}/api/events`);
      clients.push(next);
      if (next.status === 200 || Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(next.status).toBe(200);
  });

  it('emits no MaxListenersExceededWarning with 150 streams open: the streams share one listener per event', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const { events, port } = await hubServer({ ...DEFAULT_EVENT_STREAM, maxSubscribers: 200 });
      for (let i = 0; i < 150; i++) clients.push(await openSse(`http://127.0.0.1:${port}/api/events`));
      events.emit('config-changed', { section: 'usage' });
      await Promise.all(clients.map((c) => c.waitFor((x) => x.events.length === 1)));
      expect(events.listenerCount('config-changed')).toBe(1);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
