/** The env keys that name the endpoint the agent calls (issue 28.5): they must be http(s) URLs. */
export const URL_ENV_KEYS = ['PROVIDER_BASE_URL', 'ANTHROPIC_BASE_URL'] as const;

/**
 * What is wrong with a base URL value, or null when it is fine. Blank is fine (the key is
 * simply unset); anything else must parse as an absolute `http:` or `https:` URL with a host.
 */
export function baseUrlProblem(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  // The value is never echoed: a base URL may carry a password in its userinfo.
  const expected = 'must be an http(s) URL such as https://api.example.com';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return expected;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${expected} (it must start with http:// or https://)`;
  if (url.hostname === '') return `${expected} (it has no host)`;
  return null;
}

/** The first base URL in `env` that is not a URL, as `settings.env.<KEY>: <problem>`; null when all are fine. */
export function envUrlProblem(env: Record<string, unknown>): string | null {
  for (const key of URL_ENV_KEYS) {
    const value = env[key];
    if (typeof value !== 'string') continue;
    const problem = baseUrlProblem(value);
    if (problem) return `settings.env.${key}: ${problem}`;
  }
  return null;
}
