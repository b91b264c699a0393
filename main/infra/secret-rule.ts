// The one rule for what is a secret (decisions §2, "Sensitive env keys"). The API's masked reads,
// the proxy engine's error logs and the dashboard all use it. Pure and import-free on purpose: the
// renderer imports this file at runtime (the only file under main/ it may; test/architecture.test.ts).

/** What every masked value reads as in the API: nothing of the secret shows, not even its length. */
export const MASK = '********';

const SENSITIVE_WORDS = new Set([
  'TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PWD', 'PASS', 'KEY', 'APIKEY', 'PAT',
  'CREDENTIAL', 'CREDENTIALS', 'AUTH', 'AUTHORIZATION', 'COOKIE', 'SESSION', 'PRIVATE', 'SIGNATURE',
]);

/** `PROVIDER_BASE_URL`, `AUTH_PORT`, `TOKEN_MODEL`: a key ending in one of these names a place, not a secret. */
const PLACE_WORDS = new Set(['URL', 'URI', 'HOST', 'PORT', 'MODEL', 'PATH']);

/** `x-api_key` → x, api, key; `anthropicApiKey` → anthropic, Api, Key. Splits on `_`, `-`, `.` and lower→upper changes. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter((word) => word !== '');
}

/** `MAX_TOKENS`, `TOKEN_LIMIT`: with one of these words, TOKEN/TOKENS counts tokens instead of being one. */
const COUNT_WORDS = new Set(['MAX', 'MIN', 'LIMIT', 'BUDGET', 'COUNT', 'THINKING']);
const TOKEN_WORDS = new Set(['TOKEN', 'TOKENS']);

/**
 * decisions §2: any word is a secret word, unless the last word names a place (URL, PORT, ...),
 * or the only secret words are TOKEN/TOKENS beside a count word (`CLAUDE_CODE_MAX_OUTPUT_TOKENS`
 * is a number; `MAX_AUTH_TOKENS` stays a secret: AUTH is not a token word).
 */
export function isSensitiveKey(key: string): boolean {
  const words = keyWords(key).map((word) => word.toUpperCase());
  if (words.length === 0 || PLACE_WORDS.has(words[words.length - 1]!)) return false;
  const secretWords = words.filter((word) => SENSITIVE_WORDS.has(word));
  if (secretWords.length === 0) return false;
  const countsTokens = secretWords.every((word) => TOKEN_WORDS.has(word)) && words.some((word) => COUNT_WORDS.has(word));
  return !countsTokens;
}

/** `scheme://<authority>`: the authority runs to the first `/`, `?` or `#`. */
const URL_AUTHORITY = /^\s*[a-z][a-z0-9+.-]*:\/\/([^/?#\s]*)/i;

/** A value is a secret whatever its key when it is a URL with a password in its userinfo (`scheme://user:pass@host`). */
export function isSensitiveValue(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const authority = URL_AUTHORITY.exec(value)?.[1];
  const at = authority?.lastIndexOf('@') ?? -1;
  if (at < 0) return false;
  const userinfo = authority!.slice(0, at);
  const colon = userinfo.indexOf(':');
  return colon >= 0 && colon < userinfo.length - 1;
}

/** One env entry: secret by its key's name or by its value. */
export function isSensitiveEntry(key: string, value: unknown): boolean {
  return isSensitiveKey(key) || isSensitiveValue(value);
}

/** A copy with every sensitive value, at any depth, replaced by `MASK` (a sensitive key's value whatever its type). */
export function maskSecrets<T>(value: T): T {
  return maskNode(value) as T;
}

function maskNode(value: unknown): unknown {
  if (isSensitiveValue(value)) return MASK;
  if (Array.isArray(value)) return value.map(maskNode);
  if (!isPlainObject(value)) return value;
  // fromEntries defines own properties, so a key named `__proto__` stays a plain key.
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, isSensitiveKey(key) ? MASK : maskNode(v)]));
}

/**
 * Undoes the mask in what a client sends back, so a masked form can be saved: wherever it sends
 * `MASK` for a value that was masked, the stored value stays. A sensitive key sent as the mask
 * with nothing stored behind it is dropped, since the mask itself must never become the secret.
 */
export function unmaskSecrets<T>(incoming: T, stored: unknown): T {
  return unmaskNode(incoming, stored) as T;
}

function unmaskNode(incoming: unknown, stored: unknown): unknown {
  if (incoming === MASK) return isSensitiveValue(stored) ? stored : incoming;
  if (Array.isArray(incoming)) {
    const before = Array.isArray(stored) ? stored : [];
    return incoming.map((item, i) => unmaskNode(item, before[i]));
  }
  if (!isPlainObject(incoming)) return incoming;
  const before = isPlainObject(stored) ? stored : {};
  const out: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(incoming)) {
    const previous = Object.hasOwn(before, key) ? before[key] : undefined;
    if (value === MASK && isSensitiveKey(key)) {
      if (previous !== undefined) out.push([key, previous]);
      continue;
    }
    out.push([key, unmaskNode(value, previous)]);
  }
  return Object.fromEntries(out);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How a secret may appear in the proxy engine's error logs: its first and last four characters
 * when it is long enough (24+) that they tell keys apart without helping to guess one, else `MASK`.
 */
export function maskForLog(value: string): string {
  return value.length >= 24 ? `${value.slice(0, 4)}...${value.slice(-4)}` : MASK;
}

/** A header value as it may appear in a log: secrets masked by the same rule; `Authorization` keeps its scheme. */
export function maskHeaderValue(name: string, value: string): string {
  if (keyWords(name).some((word) => word.toUpperCase() === 'AUTHORIZATION')) {
    const match = /^(\S+)\s+(\S.*)$/.exec(value);
    return match ? `${match[1]} ${maskForLog(match[2]!)}` : maskForLog(value);
  }
  return isSensitiveKey(name) || isSensitiveValue(value) ? maskForLog(value) : value;
}
