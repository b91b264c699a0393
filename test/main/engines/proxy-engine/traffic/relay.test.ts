import type http from 'node:http';
import { PassThrough } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Hangup } from '../../../../../main/engines/proxy-engine/traffic/hangup.js';
import { relayStream } from '../../../../../main/engines/proxy-engine/traffic/relay.js';

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

const relay = (upstream: PassThrough, res: http.ServerResponse) =>
  relayStream(upstream as unknown as http.IncomingMessage, res, { errorFrame: () => '', idleMs: 60_000, hangup: new Hangup(), headers: {} });

describe('relayStream', () => {
  it('sends the last event and the end of a stream in one write when they arrive in one read', async () => {
    const upstream = new PassThrough();
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
    const upstream = new PassThrough();
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
