import { describe, expect, it } from 'vitest';
import { randomAlphanumeric } from '../../../main/infra/random-text.js';

describe('randomAlphanumeric', () => {
  it('returns exactly the requested number of [A-Za-z0-9] characters', () => {
    for (const n of [0, 1, 32, 100]) expect(randomAlphanumeric(n)).toMatch(new RegExp(`^[A-Za-z0-9]{${n}}$`));
  });

  it('uses the whole alphabet and does not repeat itself', () => {
    const seen = new Set(randomAlphanumeric(5_000));
    expect(seen.size).toBe(62);
    const draws = new Set(Array.from({ length: 200 }, () => randomAlphanumeric(32)));
    expect(draws.size).toBe(200);
  });
});
