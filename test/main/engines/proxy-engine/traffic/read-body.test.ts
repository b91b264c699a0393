import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readLimited } from '../../../../../main/engines/proxy-engine/traffic/read-body.js';

describe('readLimited', () => {
  it('collects every chunk, and the close after the end changes nothing', async () => {
    const stream = new PassThrough();
    const body = readLimited(stream, 100);
    stream.write('{"a":');
    stream.end('1}');
    await expect(body).resolves.toEqual(Buffer.from('{"a":1}'));
    stream.destroy();
  });

  it('rejects a stream that closes before its end (the client went away mid-upload)', async () => {
    const stream = new PassThrough();
    const body = readLimited(stream, 100);
    stream.write('{"a":');
    stream.destroy();
    await expect(body).rejects.toThrow('stream closed before its end');
  });

  it('refuses more than the limit', async () => {
    const stream = new PassThrough();
    const body = readLimited(stream, 4);
    stream.end('12345');
    await expect(body).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});
