/**
 * Every substring of `secret` with at least `min` characters that occurs in `text`. A masked
 * answer must give back none: not the secret, not a prefix, not a tail, nothing in between.
 */
export function secretFragmentsIn(text: string, secret: string, min = 3): string[] {
  const found = new Set<string>();
  for (let start = 0; start + min <= secret.length; start++) {
    const fragment = secret.slice(start, start + min);
    if (text.includes(fragment)) found.add(fragment);
  }
  return [...found];
}
