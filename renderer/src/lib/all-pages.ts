/** One page of a paged list: its rows and the list's total at the time. */
export interface Page<T> {
  rows: T[];
  total: number;
}

/**
 * Every row of a paged list, read page by page from offset 0. Data refreshed between two pages
 * can shift rows: a row (by `key`) is kept once, and a changed total starts the read over, at
 * most `retries` times, after which what was read stands.
 */
export async function readAllPages<T>(fetchPage: (offset: number) => Promise<Page<T>>, key: (row: T) => string, retries = 2): Promise<T[]> {
  for (let attempt = 0; ; attempt++) {
    const all: T[] = [];
    const seen = new Set<string>();
    let total: number | undefined;
    let offset = 0;
    for (;;) {
      const page = await fetchPage(offset);
      total ??= page.total;
      if (page.total !== total && attempt < retries) break;
      offset += page.rows.length;
      for (const row of page.rows) {
        const k = key(row);
        if (seen.has(k)) continue;
        seen.add(k);
        all.push(row);
      }
      if (page.rows.length === 0 || offset >= page.total) return all;
    }
  }
}
