/** `45 seconds`, `3 minutes`, `2 hours`, `6 days`: the largest whole unit, for the status line. */
export function humanAge(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [name, size] of units) {
    if (seconds >= size) return plural(Math.floor(seconds / size), name);
  }
  return plural(seconds, 'second');
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
