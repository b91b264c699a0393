import { describe, expect, it } from 'vitest';
import { readAllPages, type Page } from '../../../../renderer/src/lib/all-pages.js';

/** A paged list over `rows()`, read at each call, `size` rows a page. */
function pager(rows: () => string[], size: number) {
  const offsets: number[] = [];
  const fetchPage = async (offset: number): Promise<Page<string>> => {
    offsets.push(offset);
    const now = rows();
    return { rows: now.slice(offset, offset + size), total: now.length };
  };
  return { fetchPage, offsets };
}

const id = (s: string) => s;

describe('readAllPages', () => {
  it('reads every page in order', async () => {
    const p = pager(() => ['a', 'b', 'c', 'd', 'e'], 2);
    expect(await readAllPages(p.fetchPage, id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(p.offsets).toEqual([0, 2, 4]);
  });

  it('an empty list is one request', async () => {
    const p = pager(() => [], 2);
    expect(await readAllPages(p.fetchPage, id)).toEqual([]);
    expect(p.offsets).toEqual([0]);
  });

  it('a row pushed onto the next page by a refresh is kept once', async () => {
    let calls = 0;
    // Same total, but after the first page a row moved up front (sorted by cost, say): 'b' shows twice.
    const p = pager(() => (calls++ === 0 ? ['a', 'b', 'c', 'd'] : ['c', 'a', 'b', 'd']), 2);
    expect(await readAllPages(p.fetchPage, id)).toEqual(['a', 'b', 'd']);
  });

  it('a total that changes between pages starts the read over', async () => {
    let calls = 0;
    const p = pager(() => (calls++ < 1 ? ['a', 'b', 'c'] : ['new', 'a', 'b', 'c']), 2);
    expect(await readAllPages(p.fetchPage, id)).toEqual(['new', 'a', 'b', 'c']);
    expect(p.offsets).toEqual([0, 2, 0, 2]);
  });

  it('a list that keeps changing is read over at most `retries` times, then what was read stands', async () => {
    let n = 0;
    const p = pager(() => Array.from({ length: 3 + n++ }, (_, i) => `r${i}`), 2);
    const rows = await readAllPages(p.fetchPage, id, 2);
    // Two read-overs, then the third read goes on to the end of the list as it then stands.
    expect(p.offsets.filter((o) => o === 0)).toHaveLength(3);
    expect(rows).toEqual(Array.from({ length: rows.length }, (_, i) => `r${i}`));
    expect(rows.length).toBeGreaterThanOrEqual(7);
  });
});
