import os from 'node:os';
import { crc32 } from 'node:zlib';

/** Names a binary file format: 8 ASCII bytes and a version, both checked on reading. */
export interface BinaryKind {
  magic: string;
  version: number;
}

/*
 * A small JSON head followed by raw sections (typed arrays as they sit in memory):
 *    0  magic, 8 ASCII bytes
 *    8  u32 0x01020304 in the writer's byte order (sections hold numbers in that order)
 *   12  u32 format version
 *   16  u32 byte length of the head
 *   20  u32 CRC-32 of every byte after the header (or of the head and its padding only: BinaryCheck)
 *   24  head: UTF-8 JSON, zero padding to a multiple of 8, then the sections end to end.
 * The head says how long each section is. A reader gets the bytes after the padding and takes
 * typed-array views of them: no text decoding of the bulk, no copies.
 */
const HEADER_BYTES = 24;
const BYTE_ORDER_MARK = 0x01020304;
const LITTLE_ENDIAN = os.endianness() === 'LE';
const ZEROS = new Uint8Array(8);

export function encodeBinaryFile(kind: BinaryKind, head: unknown, sections: readonly Uint8Array[]): Buffer {
  const pieces = encodeBinaryPieces(kind, head, sections, 'whole');
  // Not pooled, so it starts on an aligned address.
  const out = Buffer.allocUnsafeSlow(pieces.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of pieces) {
    out.set(s, at);
    at += s.length;
  }
  return out;
}

/**
 * What covers the data: 'whole' = the header's CRC-32 covers every byte after the header;
 * 'head' = only the head and its padding, for sections that carry their own checksums (named in
 * the head, checked by the reader), so a writer need not checksum megabytes it checksummed before.
 */
export type BinaryCheck = 'whole' | 'head';

/**
 * The file as pieces to write in order (e.g. writeFileAtomic's list form): the header, the head,
 * its padding (0 to 7 bytes), then the sections themselves, not copied.
 */
export function encodeBinaryPieces(kind: BinaryKind, head: unknown, sections: readonly Uint8Array[], check: BinaryCheck): Uint8Array[] {
  if (!/^[\x20-\x7e]{8}$/.test(kind.magic)) throw new Error('a binary file magic is 8 printable ASCII characters');
  // Encoded once and written as it is (a 20 MB head: measuring its UTF-8 length first and then
  // encoding it were two passes over the text; copying it behind the header, a second 20 MB).
  const headBytes = Buffer.from(JSON.stringify(head), 'utf8');
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(kind.magic, 0, 'latin1');
  const padding = ZEROS.subarray(0, align8(HEADER_BYTES + headBytes.length) - HEADER_BYTES - headBytes.length);
  let crc = crc32(headBytes);
  if (padding.length > 0) crc = crc32(padding, crc);
  if (check === 'whole') for (const s of sections) if (s.length > 0) crc = crc32(s, crc); // an empty one may be crc32(crc, NULL, 0): 0
  const view = new DataView(header.buffer, header.byteOffset, HEADER_BYTES);
  view.setUint32(8, BYTE_ORDER_MARK, LITTLE_ENDIAN);
  view.setUint32(12, kind.version, LITTLE_ENDIAN);
  view.setUint32(16, headBytes.length, LITTLE_ENDIAN);
  view.setUint32(20, crc, LITTLE_ENDIAN);
  return [header, headBytes, padding, ...sections];
}

/**
 * The parsed head and the bytes after its padding, or null when this is not an intact file of
 * this kind, version and byte order: another format, truncated, or damaged anywhere (the CRC
 * covers every byte after the header; with 'head', the head only: the caller checks the rest).
 */
export function decodeBinaryFile(bytes: Buffer, kind: BinaryKind, check: BinaryCheck = 'whole'): { head: unknown; data: Buffer } | null {
  if (bytes.length < HEADER_BYTES || bytes.toString('latin1', 0, 8) !== kind.magic) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  if (view.getUint32(8, LITTLE_ENDIAN) !== BYTE_ORDER_MARK || view.getUint32(12, LITTLE_ENDIAN) !== kind.version) return null;
  const headEnd = HEADER_BYTES + view.getUint32(16, LITTLE_ENDIAN);
  const dataAt = align8(headEnd);
  if (dataAt > bytes.length) return null;
  if (view.getUint32(20, LITTLE_ENDIAN) !== crc32(bytes.subarray(HEADER_BYTES, check === 'whole' ? bytes.length : dataAt))) return null;
  try {
    return { head: JSON.parse(bytes.toString('utf8', HEADER_BYTES, headEnd)), data: bytes.subarray(dataAt) };
  } catch {
    return null;
  }
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
