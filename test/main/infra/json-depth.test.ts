import { describe, expect, it } from 'vitest';
import { jsonTooDeep, MAX_JSON_DEPTH, valueTooDeep } from '../../../main/infra/json-depth.js';

const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('jsonTooDeep', () => {
  it.each([
    ['64 nested objects', objects(64), false],
    ['65 nested objects', objects(65), true],
    ['64 nested arrays', arrays(64), false],
    ['6,000 nested arrays', arrays(6000), true],
    ['a million brackets', arrays(1_000_000), true],
    ['brackets inside a string', JSON.stringify({ s: '['.repeat(500) }), false],
    ['an escaped quote inside a string', JSON.stringify({ s: `\\"${'{'.repeat(100)}` }), false],
    ['a string ending in an escaped backslash, then 65 levels', `{"s":"a\\\\","t":${arrays(65)}}`, true],
    ['escaped quotes and backslashes inside strings, then 64 levels', `{"s":"\\"\\\\\\"[[[","t":${arrays(63)}}`, false],
    ['many siblings', JSON.stringify(Array.from({ length: 1000 }, () => [[1]])), false],
    ['multi-byte text around brackets', JSON.stringify({ 'é😀': ['ü', { 'ß': '[[[[' }] }), false],
    ['not JSON at all', '}}}]]]', false],
  ])('%s', (_name, text, deep) => {
    expect(jsonTooDeep(text)).toBe(deep);
    expect(jsonTooDeep(Buffer.from(text, 'utf8'))).toBe(deep);
  });

  it('agrees with the limit it documents', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
  });
});

describe('valueTooDeep', () => {
  it.each([
    ['a scalar', 1, false],
    ['64 levels', JSON.parse(objects(64)), false],
    ['65 levels', JSON.parse(objects(65)), true],
    ['100,000 levels (no stack overflow)', JSON.parse(arrays(100_000)), true],
  ])('%s', (_name, value, deep) => {
    expect(valueTooDeep(value)).toBe(deep);
  });
});
