/** Which lines of `a` and of `b` are not shared (LCS over lines); enough to mark a conflict view. */
export function changedLines(a: string[], b: string[]): { onlyA: Set<number>; onlyB: Set<number> } {
  const n = a.length;
  const m = b.length;
  // Files edited here are small; beyond this the O(n·m) table is not worth it.
  if (n * m > 4_000_000) return { onlyA: new Set(a.map((_, i) => i)), onlyB: new Set(b.map((_, i) => i)) };
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    }
  }
  const onlyA = new Set<number>();
  const onlyB = new Set<number>();
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) (i++, j++);
    else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) onlyA.add(i++);
    else onlyB.add(j++);
  }
  while (i < n) onlyA.add(i++);
  while (j < m) onlyB.add(j++);
  return { onlyA, onlyB };
}
