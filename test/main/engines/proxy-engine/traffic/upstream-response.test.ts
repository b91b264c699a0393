import { describe, expect, it } from 'vitest';
import { UpstreamResponse, type BodySink } from '../../../../../main/engines/proxy-engine/traffic/upstream-response.js';

function answer() {
  const flow = { calls: [] as string[], pause: () => flow.calls.push('pause'), resume: () => flow.calls.push('resume'), abort: (e: Error) => flow.calls.push(`abort ${e.message}`) };
  return { flow, response: new UpstreamResponse(200, { 'retry-after': '3', 'x-two': ['a', 'b'] }, flow) };
}

/** A sink writing down what it heard, in order. */
function recorder(onData?: (chunk: Buffer) => void) {
  const heard: string[] = [];
  const sink: BodySink = {
    data: (chunk) => {
      heard.push(chunk.toString());
      onData?.(chunk);
    },
    end: () => heard.push('<end>'),
    error: (err) => heard.push(`<error ${err.message}>`),
  };
  return { heard, sink };
}

describe('UpstreamResponse', () => {
  it('keeps what arrived before the consumer attached, in order, then delivers the rest as it comes', () => {
    const { response } = answer();
    response.push(Buffer.from('a'));
    response.push(Buffer.from('b'));
    const { heard, sink } = recorder();
    response.consume(sink);
    expect(heard).toEqual(['a', 'b']);
    response.push(Buffer.from('c'));
    response.finish();
    expect(heard).toEqual(['a', 'b', 'c', '<end>']);
  });

  it('a body that ended (or failed) before the consumer came is delivered with its outcome', () => {
    const ended = answer().response;
    ended.push(Buffer.from('whole'));
    ended.finish();
    const one = recorder();
    ended.consume(one.sink);
    expect(one.heard).toEqual(['whole', '<end>']);

    const failed = answer().response;
    failed.push(Buffer.from('part'));
    failed.fail(new Error('other side closed'));
    const two = recorder();
    failed.consume(two.sink);
    expect(two.heard).toEqual(['part', '<error other side closed>']);
  });

  it('closes once: nothing after the end or the failure reaches the consumer', () => {
    const { response } = answer();
    const { heard, sink } = recorder();
    response.consume(sink);
    response.finish();
    response.push(Buffer.from('late'));
    response.fail(new Error('late failure'));
    response.finish();
    expect(heard).toEqual(['<end>']);
  });

  it('a chunk pushed while the early ones are handed over keeps its place behind them', () => {
    const { response } = answer();
    response.push(Buffer.from('1'));
    response.push(Buffer.from('2'));
    let pushed = false;
    const { heard, sink } = recorder(() => {
      if (pushed) return;
      pushed = true;
      response.push(Buffer.from('3')); // a synchronous resume inside the consumer
    });
    response.consume(sink);
    expect(heard).toEqual(['1', '2', '3']);
  });

  it('destroy aborts the call once, and the consumer hears nothing more', () => {
    const { response, flow } = answer();
    const { heard, sink } = recorder();
    response.push(Buffer.from('kept'));
    response.consume(sink);
    response.destroy(new Error('client went away'));
    response.destroy(new Error('again'));
    response.push(Buffer.from('dropped'));
    response.fail(new Error('aborted'));
    expect(heard).toEqual(['kept']);
    expect(flow.calls).toEqual(['abort client went away']);
  });

  it('destroying a body that already ended aborts nothing', () => {
    const { response, flow } = answer();
    response.finish();
    response.destroy();
    expect(flow.calls).toEqual([]);
  });

  it('a consumer that destroys the body mid-way gets no further early chunks', () => {
    const { response } = answer();
    response.push(Buffer.from('x'));
    response.push(Buffer.from('y'));
    response.finish();
    const { heard, sink } = recorder(() => response.destroy());
    response.consume(sink);
    expect(heard).toEqual(['x']);
  });

  it('pause and resume go to the connection; a second consumer is refused', () => {
    const { response, flow } = answer();
    response.consume(recorder().sink);
    response.pause();
    response.resume();
    expect(flow.calls).toEqual(['pause', 'resume']);
    expect(() => response.consume(recorder().sink)).toThrow(/one consumer/);
  });

  it('header() gives the first of repeated values', () => {
    const { response } = answer();
    expect(response.header('retry-after')).toBe('3');
    expect(response.header('x-two')).toBe('a');
    expect(response.header('missing')).toBeUndefined();
  });
});
