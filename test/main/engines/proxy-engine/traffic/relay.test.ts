import type http from 'node:http';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Hangup } from '../../../../../main/engines/proxy-engine/traffic/hangup.js';
import { relayStream } from '../../../../../main/engines/proxy-engine/traffic/relay.js';
import { UpstreamResponse } from '../../../../../main/engines/proxy-engine/traffic/upstream-response.js';

/** A client response that records what reached its socket and what waited in it (corked). */
function clientResponse() {
  const log: string[] = [];
  let corked = 0;
  let waiting: string[] = [];
  const flush = () => {
    if (waiting.length > 0) log.push(`write ${waiting.join('+')}`);
    waiting = [];
  };
  const res = {
    writeHead: () => res,
    write: (chunk: Buffer | string) => {
      waiting.push(String(chunk));
      if (corked === 0) flush();
      return true;
    },
    end: (chunk: Buffer | string = '') => {
      waiting.push(`${String(chunk)}<end>`);
      corked = 0; // res.end uncorks the socket fully
      flush();
    },
    socket: {
      cork: () => void corked++,
      uncork: () => {
        if (corked > 0 && --corked === 0) flush();
      },
    },
    once: () => res,
  };
  return { log, res: res as unknown as http.ServerResponse };
}

/** An upstream answer fed by hand: `write` is a chunk read from the upstream, `end` its last. */
function upstreamAnswer() {
  const response = new UpstreamResponse(200, {}, { pause() {}, resume() {}, abort() {} });
  return {
    response,
    write: (text: string) => response.push(Buffer.from(text)),
    end: (text?: string) => {
      if (text) response.push(Buffer.from(text));
      response.finish();
    },
  };
}

const relay = (upstream: ReturnType<typeof upstreamAnswer>, res: http.ServerResponse) =>
  relayStream(upstream.response, res, { errorFrame: () => '', idleMs: 60_000, hangup: new Hangup(), headers: {} });

describe('relayStream', () => {
  it('sends the last event and the end of a stream in one write when they arrive in one read', async () => {
    const upstream = upstreamAnswer();
    const { log, res } = clientResponse();
    const done = relay(upstream, res);
    upstream.write('first');
    await turn();
    expect(log).toEqual(['write first']);
    upstream.end('last');
    expect(await done).toEqual({ kind: 'done' });
    expect(log).toEqual(['write first', 'write last+<end>']);
  });

  it('holds nothing past the turn of the event loop it arrived in', async () => {
    const upstream = upstreamAnswer();
    const { log, res } = clientResponse();
    const done = relay(upstream, res);
    upstream.write('a');
    upstream.write('b');
    await turn();
    expect(log).toEqual(['write a+b']);
    upstream.write('c');
    await turn();
    expect(log).toEqual(['write a+b', 'write c']);
    upstream.end();
    await done;
    expect(log).toEqual(['write a+b', 'write c', 'write <end>']);
  });
});

describe('relayStream with a translator', () => {
  it('a character cut between two upstream chunks reaches the translator (and the observer) whole', async () => {
    const fed: string[] = [];
    const seenText: string[] = [];
    const translator = { done: false, feed: (t: string) => (fed.push(t), t), end: () => '<closed>', fail: () => '' };
    const upstream = upstreamAnswer();
    const { log, res } = clientResponse();
    const done = relayStream(upstream.response, res, { translator, observe: (c) => seenText.push(String(c)), errorFrame: () => '', idleMs: 60_000, hangup: new Hangup(), headers: {} });
    const bytes = Buffer.from('é€', 'utf8'); // 2 + 3 bytes
    upstream.response.push(bytes.subarray(0, 1));
    upstream.response.push(bytes.subarray(1, 3));
    upstream.response.push(bytes.subarray(3));
    upstream.response.finish();
    expect(await done).toEqual({ kind: 'done' });
    expect(fed.join('')).toBe('é€');
    expect(fed.every((t) => !t.includes('\uFFFD'))).toBe(true);
    expect(seenText.join('')).toBe('é€');
    expect(log).toEqual(['write é+€+<closed><end>']);
  });

  it('a client that cannot keep up pauses the upstream until it drains', async () => {
    const calls: string[] = [];
    const paused = new UpstreamResponse(200, {}, { pause: () => calls.push('pause'), resume: () => calls.push('resume'), abort: () => calls.push('abort') });
    let drain: (() => void) | undefined;
    const res = { writeHead: () => res, write: () => false, end: () => undefined, socket: null, once: (_: string, fn: () => void) => ((drain = fn), res) };
    const done = relayStream(paused, res as unknown as http.ServerResponse, { errorFrame: () => '', idleMs: 60_000, hangup: new Hangup(), headers: {} });
    paused.push(Buffer.from('big'));
    expect(calls).toEqual(['pause']);
    drain!();
    expect(calls).toEqual(['pause', 'resume']);
    paused.finish();
    expect(await done).toEqual({ kind: 'done' });
  });
});
