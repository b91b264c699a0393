/** decisions §2: which env keys the API masks. Mirrored here to choose password inputs. */
const EXACT = new Set(['TOKEN', 'SECRET', 'PASSWORD', 'API_KEY', 'AUTH_TOKEN']);
const SUFFIXES = ['_TOKEN', '_KEY', '_SECRET', '_PASSWORD', '_CREDENTIAL', '_CREDENTIALS', '_PRIVATE_KEY'];
export const MASK = '********';

export function isSensitiveKey(key: string): boolean {
  const k = key.toUpperCase();
  return EXACT.has(k) || SUFFIXES.some((s) => k.endsWith(s));
}
