import type { UsageRecord } from './types.js';

/**
 * Records as a few typed arrays and a string table: how they cross from scan workers (the buffers
 * are transferred, not cloned) and how the disk cache stores them (base64 of the same arrays
 * parses far faster than a JSON object per record).
 */
export interface PackedRecords {
  count: number;
  /** timestamp, input, output, cache write 5m, cache write 1h, cache read, offset, flags, cost. */
  numbers: Float64Array;
  /** file, model, session, project path, version: indexes into `strings`, -1 for null. */
  refs: Int32Array;
  /** De-duplication keys; '' for none (a real key is never empty). */
  keys: string[];
  strings: string[];
}

const NUM = 9;
const REF = 5;
const SIDECHAIN = 1;
const FAST = 2;

export function packRecords(records: readonly UsageRecord[]): PackedRecords {
  const numbers = new Float64Array(records.length * NUM);
  const refs = new Int32Array(records.length * REF);
  const keys: string[] = new Array(records.length);
  const strings: string[] = [];
  const index = new Map<string, number>();
  const ref = (s: string | null): number => {
    if (s === null) return -1;
    let i = index.get(s);
    if (i === undefined) {
      i = strings.push(s) - 1;
      index.set(s, i);
    }
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
    numbers[n + 7] = (r.sidechain ? SIDECHAIN : 0) | (r.fast ? FAST : 0);
    numbers[n + 8] = r.cost;
    const f = i * REF;
    refs[f] = ref(r.file);
    refs[f + 1] = ref(r.model);
    refs[f + 2] = ref(r.sessionId);
    refs[f + 3] = ref(r.projectPath);
    refs[f + 4] = ref(r.version);
    keys[i] = r.key ?? '';
  });
  return { count: records.length, numbers, refs, keys, strings };
}

/** Throws on arrays that do not fit together (a damaged disk cache). */
export function unpackRecords(p: PackedRecords): UsageRecord[] {
  if (p.numbers.length !== p.count * NUM || p.refs.length !== p.count * REF || p.keys.length !== p.count) {
    throw new Error('packed records do not fit together');
  }
  const text = (i: number): string | null => {
    if (i === -1) return null;
    const s = p.strings[i];
    if (typeof s !== 'string') throw new Error('packed record points outside its string table');
    return s;
  };
  const out: UsageRecord[] = new Array(p.count);
  for (let i = 0; i < p.count; i++) {
    const n = i * NUM;
    const f = i * REF;
    const key = p.keys[i];
    const file = text(p.refs[f]!);
    const sessionId = text(p.refs[f + 2]!);
    if (typeof key !== 'string' || file === null || sessionId === null) throw new Error('packed record without file or session');
    out[i] = {
      key: key === '' ? null : key,
      timestamp: p.numbers[n]!,
      model: text(p.refs[f + 1]!),
      inputTokens: p.numbers[n + 1]!,
      outputTokens: p.numbers[n + 2]!,
      cacheWrite5mTokens: p.numbers[n + 3]!,
      cacheWrite1hTokens: p.numbers[n + 4]!,
      cacheReadTokens: p.numbers[n + 5]!,
      sidechain: (p.numbers[n + 7]! & SIDECHAIN) !== 0,
      fast: (p.numbers[n + 7]! & FAST) !== 0,
      sessionId,
      projectPath: text(p.refs[f + 3]!),
      version: text(p.refs[f + 4]!),
      file,
      offset: p.numbers[n + 6]!,
      cost: p.numbers[n + 8]!,
    };
  }
  return out;
}
