import os from 'node:os';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBinaryFile, encodeBinaryFile, encodeBinaryPieces } from '../../../main/infra/binary-file.js';

const kind = { magic: 'TESTFILE', version: 7 };
const numbers = new Float64Array([1.5, -2, 2 ** 53]);
const ints = new Int32Array([3, -1, 0x7fffffff]);
const encoded = () => encodeBinaryFile(kind, { n: 3, name: 'café' }, [new Uint8Array(numbers.buffer), new Uint8Array(ints.buffer)]);
const le = os.endianness() === 'LE';
const u32 = (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));

function patched(bytes: Buffer, at: number, value: number): Buffer {
  const copy = Buffer.from(bytes);
  if (le) copy.writeUInt32LE(value, at);
  else copy.writeUInt32BE(value, at);
  return copy;
}

describe('binary file', () => {
  it('lays out magic, byte order, version, head length, checksum, head, padding, then the sections', () => {
    const bytes = encoded();
    expect(bytes.toString('latin1', 0, 8)).toBe('TESTFILE');
    expect([u32(bytes, 8), u32(bytes, 12)]).toEqual([0x01020304, 7]);
    const headBytes = u32(bytes, 16);
    expect(bytes.toString('utf8', 24, 24 + headBytes)).toBe('{"n":3,"name":"café"}');
    const dataAt = Math.ceil((24 + headBytes) / 8) * 8;
    expect([...bytes.subarray(24 + headBytes, dataAt)].every((b) => b === 0)).toBe(true);
    expect(bytes.length).toBe(dataAt + 24 + 12);
  });

  it('decodes to the head and sections that views can be taken of, in place', () => {
    const { head, data } = decodeBinaryFile(encoded(), kind)!;
    expect(head).toEqual({ n: 3, name: 'café' });
    expect(data.byteOffset % 8).toBe(0);
    expect([...new Float64Array(data.buffer, data.byteOffset, 3)]).toEqual([...numbers]);
    expect([...new Int32Array(data.buffer, data.byteOffset + 24, 3)]).toEqual([...ints]);
  });

  it.each([
    ['empty', () => Buffer.alloc(0)],
    ['cut inside the header', (b: Buffer) => b.subarray(0, 23)],
    ['cut by one byte', (b: Buffer) => b.subarray(0, b.length - 1)],
    ['another magic', (b: Buffer) => Buffer.concat([Buffer.from('TESTFILX'), b.subarray(8)])],
    ['the other byte order', (b: Buffer) => patched(b, 8, 0x04030201)],
    ['another version', (b: Buffer) => patched(b, 12, 8)],
    ['a head length past the end', (b: Buffer) => patched(b, 16, b.length)],
    ['a wrong checksum', (b: Buffer) => patched(b, 20, (u32(b, 20) ^ 1) >>> 0)],
    ['one section byte changed', (b: Buffer) => Buffer.concat([b.subarray(0, b.length - 1), Buffer.from([b[b.length - 1]! ^ 0x80])])],
    ['a head that is not JSON (with a valid checksum)', () => {
      const b = encodeBinaryFile(kind, 1, []).fill(0x7b, 24, 25); // the head `1` becomes `{`
      return patched(b, 20, crc32(b.subarray(24)));
    }],
    ['text', () => Buffer.from('{"format":"something","version":7}')],
  ])('is not read when %s', (_what, damage) => {
    expect(decodeBinaryFile(damage(encoded()), kind)).toBeNull();
  });

  it('as pieces: the same bytes, the sections themselves (not copies) after the header', () => {
    const sections = [new Uint8Array(numbers.buffer), new Uint8Array(ints.buffer), new Uint8Array(0)];
    const pieces = encodeBinaryPieces(kind, { n: 3, name: 'café' }, sections, 'whole');
    expect(Buffer.concat(pieces).equals(encoded())).toBe(true);
    expect(pieces.slice(3)).toEqual(sections); // after the header, the head and its padding
    expect(pieces[3]).toBe(sections[0]);
  });

  it("with the 'head' check covers the head only: the sections carry their own checksums", () => {
    const bytes = Buffer.concat(encodeBinaryPieces(kind, { n: 3 }, [new Uint8Array(numbers.buffer)], 'head'));
    const sectionChanged = Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from([bytes[bytes.length - 1]! ^ 0x80])]);
    expect(decodeBinaryFile(sectionChanged, kind, 'head')).not.toBeNull(); // the caller's to check
    expect(decodeBinaryFile(bytes, kind)).toBeNull(); // a whole-file reader refuses it
    const headChanged = Buffer.from(bytes);
    headChanged[25] = headChanged[25]! ^ 1;
    expect(decodeBinaryFile(headChanged, kind, 'head')).toBeNull();
    expect(decodeBinaryFile(bytes, kind, 'head')!.head).toEqual({ n: 3 });
  });

  it('refuses a magic that is not 8 printable ASCII characters', () => {
    expect(() => encodeBinaryFile({ magic: 'SHORT', version: 1 }, {}, [])).toThrow(/8 printable ASCII/);
  });
});
