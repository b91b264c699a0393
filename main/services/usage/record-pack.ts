import type { UsageRecord } from './types.js';

/**
 * Records as a few typed arrays, one string of keys and a string table: how they cross from scan
 * workers (the buffers are transferred, not cloned) and how the disk cache stores them (base64 of
 * the same arrays and one long string parse far faster than a JSON object or string per record).
 */
export interface PackedRecords {
  count: number;
  /** timestamp, input, output, cache write 5m, cache write 1h, cache read, offset, flags, cost. */
  numbers: Float64Array;
  /** file, model, session, project path, version: indexes into `strings`, -1 for null. */
  refs: Int32Array;
  /** Every de-duplication key, end to end; `keyLengths[i]` is -1 for a record without one. */
  keyText: string;
  keyLengths: Int32Array;
  strings: string[];
}

const NUM = 9;
const REF = 5;
const SIDECHAIN = 1;
const FAST = 2;
/** Set by the disk cache on records that were kept after de-duplication when it was written. */
export const KEPT = 4;

export function packRecords(records: readonly UsageRecord[], isKept?: (r: UsageRecord) => boolean): PackedRecords {
  const numbers = new Float64Array(records.length * NUM);
  const refs = new Int32Array(records.length * REF);
  const keyLengths = new Int32Array(records.length);
  const keys: string[] = [];
  const strings: string[] = [];
  const index = new Map<string, number>();
  // Neighbouring records nearly always share file, model, session, path and version: remember
  // the last string per column and skip the map for it.
  const lastText: Array<string | null> = [null, null, null, null, null];
  const lastRef = [-1, -1, -1, -1, -1];
  const ref = (column: number, s: string | null): number => {
    if (s === null) return -1;
    if (s === lastText[column]) return lastRef[column]!;
    let i = index.get(s);
    if (i === undefined) {
      i = strings.push(s) - 1;
      index.set(s, i);
    }
    lastText[column] = s;
    lastRef[column] = i;
    return i;
  };
  records.forEach((r, i) => {
    const n = i * NUM;
    numbers[n] = r.timestamp;
    numbers[n + 1] = r.inputTokens;
    numbers[n + 2] = r.outputTokens;
    numbers[n + 3] = r.cacheWrite5mTokens;
    numbers[n + 4] = r.cacheWrite1hTokens;
    numbers[n + 5] = r.cacheReadTokens;
    numbers[n + 6] = r.offset;
    numbers[n + 7] = (r.sidechain ? SIDECHAIN : 0) | (r.fast ? FAST : 0) | (isKept?.(r) ? KEPT : 0);
    numbers[n + 8] = r.cost;
    const f = i * REF;
    refs[f] = ref(0, r.file);
    refs[f + 1] = ref(1, r.model);
    refs[f + 2] = ref(2, r.sessionId);
    refs[f + 3] = ref(3, r.projectPath);
    refs[f + 4] = ref(4, r.version);
    keyLengths[i] = r.key === null ? -1 : r.key.length;
    if (r.key !== null) keys.push(r.key);
  });
  return { count: records.length, numbers, refs, keyText: keys.join(''), keyLengths, strings };
}

/** Records and which of them carry the KEPT flag. Throws on arrays that do not fit together. */
export function unpackRecords(p: PackedRecords): { records: UsageRecord[]; kept: boolean[] } {
  if (p.numbers.length !== p.count * NUM || p.refs.length !== p.count * REF || p.keyLengths.length !== p.count) {
    throw new Error('packed records do not fit together');
  }
  const text = (i: number): string | null => {
    if (i === -1) return null;
    const s = p.strings[i];
    if (typeof s !== 'string') throw new Error('packed record points outside its string table');
    return s;
  };
  const records: UsageRecord[] = new Array(p.count);
  const kept: boolean[] = new Array(p.count);
  let keyAt = 0;
  for (let i = 0; i < p.count; i++) {
    const n = i * NUM;
    const f = i * REF;
    const length = p.keyLengths[i]!;
    let key: string | null = null;
    if (length >= 0) {
      if (keyAt + length > p.keyText.length) throw new Error('packed keys are shorter than their lengths');
      key = p.keyText.slice(keyAt, keyAt + length);
      keyAt += length;
    }
    const file = text(p.refs[f]!);
    const sessionId = text(p.refs[f + 2]!);
    if (file === null || sessionId === null) throw new Error('packed record without file or session');
    const flags = p.numbers[n + 7]!;
    records[i] = {
      key,
      timestamp: p.numbers[n]!,
      model: text(p.refs[f + 1]!),
      inputTokens: p.numbers[n + 1]!,
      outputTokens: p.numbers[n + 2]!,
      cacheWrite5mTokens: p.numbers[n + 3]!,
      cacheWrite1hTokens: p.numbers[n + 4]!,
      cacheReadTokens: p.numbers[n + 5]!,
      sidechain: (flags & SIDECHAIN) !== 0,
      fast: (flags & FAST) !== 0,
      sessionId,
      projectPath: text(p.refs[f + 3]!),
      version: text(p.refs[f + 4]!),
      file,
      offset: p.numbers[n + 6]!,
      cost: p.numbers[n + 8]!,
    };
    kept[i] = (flags & KEPT) !== 0;
  }
  if (keyAt !== p.keyText.length) throw new Error('packed keys are longer than their lengths');
  return { records, kept };
}
