import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventsRouter, DEFAULT_EVENT_STREAM, formatEvent, STREAMED_EVENTS } from '../../../main/api/events.js';
import { RouteRegistry } from '../../../main/api/route.js';
import { silentLogger } from '../../../main/infra/logger.js';
import { AppEvents } from '../../../main/services/events.js';
import type { Services } from '../../../main/services/index.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openSse, type SseClient } from '../../helpers/sse.js';

let app: TestApp | undefined;
const clients: SseClient[] = [];
const servers: http.Server[] = [];

afterEach(async () => {
  clients.splice(0).forEach((c) => c.close());
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await app?.stop();
  app = undefined;
});

async function open(url: string): Promise<SseClient> {
  const client = await openSse(url);
  clients.push(client);
  return client;
}

/** Polls a condition that changes asynchronously (socket close reaching the server). */
async function eventually(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('GET /api/events', () => {
  it('answers an event stream with a retry hint and no caching', async () => {
    app = await startTestApp();
    const sse = await open(app.url + '/api/events');
    expect(sse.status).toBe(200);
    expect(sse.contentType).toMatch(/^text\/event-stream/);
    await sse.waitFor((c) => c.retry !== undefined);
    expect(sse.retry).toBe(DEFAULT_EVENT_STREAM.retryMs);
    expect(sse.comments).toContain('connected');
    expect(sse.headers['cache-control']).toBe('no-cache, no-transform');
  });

  it('pushes every app event in order with its JSON payload', async () => {
    app = await startTestApp();
    const sse = await open(app.url + '/api/events');
    await sse.waitFor((c) => c.comments.includes('connected'));
    const events = app.services.ctx.events;
    events.emit('proxy-state', { state: 'starting', running: false });
    events.emit('proxy-state', { state: 'running', running: true, port: 8317, pid: 42 });
    events.emit('bridge-state', { state: 'failed', running: false, message: 'port 20129 in use' });
    events.emit('usage-refreshed', { timestamp: 1_767_225_600_000 });
    events.emit('anomaly', { type: 'cost_spike', date: '2026-01-01', message: 'Cost spike' });
    events.emit('config-changed', { section: 'desktop' });
    await sse.waitFor((c) => c.events.length === 6);
    expect(sse.events.map((e) => [e.event, JSON.parse(e.data)])).toEqual([
      ['proxy-state', { state: 'starting', running: false }],
      ['proxy-state', { state: 'running', running: true, port: 8317, pid: 42 }],
      ['bridge-state', { state: 'failed', running: false, message: 'port 20129 in use' }],
      ['usage-refreshed', { timestamp: 1_767_225_600_000 }],
      ['anomaly', { type: 'cost_spike', date: '2026-01-01', message: 'Cost spike' }],
      ['config-changed', { section: 'desktop' }],
    ]);
  });

  it('delivers to every connected client, with one shared set of listeners removed when the last client leaves', async () => {
    app = await startTestApp();
    const events = app.services.ctx.events;
    const baseline = events.listenerCount();
    const a = await open(app.url + '/api/events');
    const b = await open(app.url + '/api/events');
    await a.waitFor((c) => c.retry !== undefined);
    await b.waitFor((c) => c.retry !== undefined);
    const shared = STREAMED_EVENTS.length + 1; // and `closing`, however many streams (issue 27)
    expect(events.listenerCount()).toBe(baseline + shared);

    a.close();
    await a.ended;
    events.emit('usage-refreshed', { timestamp: 1 });
    await b.waitFor((c) => c.events.length === 1);
    expect(a.events).toEqual([]);

    b.close();
    await eventually(() => events.listenerCount() === baseline);
  });

  it('does not hold up shutdown while a client is connected', async () => {
    app = await startTestApp();
    const sse = await open(app.url + '/api/events');
    await sse.waitFor((c) => c.retry !== undefined);
    const started = Date.now();
    await app.close();
    // runtime.ts force-closes lingering connections after 1 s; allow for a loaded machine.
    expect(Date.now() - started).toBeLessThan(4_000);
    await sse.ended;
  });

  it('ends the stream cleanly on shutdown instead of cutting the connection', async () => {
    app = await startTestApp();
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(app!.url + '/api/events', { agent: false }, resolve).on('error', reject));
    const ended = new Promise<boolean>((resolve) => {
      res.on('end', () => resolve(res.complete));
      res.on('close', () => resolve(res.complete));
      res.resume();
    });
    await app.close();
    expect(await ended).toBe(true); // the terminating chunk arrived: not the 1 s force-close
  });

  it('refuses other methods with 405', async () => {
    app = await startTestApp();
    const res = await app.json('POST', '/api/events', {});
    expect(res).toEqual({ status: 405, body: { error: 'Method not allowed' } });
  });

  it('is listed in the OpenAPI description as an event stream', async () => {
    app = await startTestApp();
    const { body } = await app.json('GET', '/api/openapi.json');
    expect(Object.keys(body.paths['/api/events'].get.responses['200'].content)).toEqual(['text/event-stream']);
  });
});

describe('event stream heartbeat', () => {
  it('keeps the default interval between 15 and 25 seconds', () => {
    expect(DEFAULT_EVENT_STREAM.heartbeatMs).toBeGreaterThanOrEqual(15_000);
    expect(DEFAULT_EVENT_STREAM.heartbeatMs).toBeLessThanOrEqual(25_000);
  });

  it('sends heartbeat comments at the configured interval', async () => {
    const events = new AppEvents();
    const services = { ctx: { events } } as unknown as Services;
    const router = createEventsRouter({ services, registry: new RouteRegistry(), logger: silentLogger }, { ...DEFAULT_EVENT_STREAM, heartbeatMs: 25, retryMs: 500 });
    const server = http.createServer(express().use(router));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const sse = await open(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events`);
    await sse.waitFor((c) => c.comments.filter((x) => x === 'heartbeat').length >= 2);
    expect(sse.retry).toBe(500);
    sse.close();
    await eventually(() => events.listenerCount() === 0);
  });
});

describe('formatEvent', () => {
  it('keeps a payload with newlines on one data line', () => {
    expect(formatEvent('anomaly', { message: 'a\nb' })).toBe('event: anomaly\ndata: {"message":"a\\nb"}\n\n');
  });
});
