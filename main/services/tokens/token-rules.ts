import { randomAlphanumeric } from '../../infra/random-text.js';

/** decisions §2: default keys are `sk-sb-` + 32 alphanumerics; secrets are 32 alphanumerics. */
export const API_KEY_PREFIX = 'sk-sb-';
export const GENERATED_LENGTH = 32;
/** The masked API key never depends on the key: the prefix and 32 `*`, always. */
export const MASKED_API_KEY = `${API_KEY_PREFIX}${'*'.repeat(GENERATED_LENGTH)}`;
export const MASKED_SECRET = '********';

/** Printable ASCII without space, 8 to 256 characters. */
const TOKEN_VALUE = /^[\x21-\x7E]{8,256}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomAlphanumeric(GENERATED_LENGTH);
}

export function generateSecret(): string {
  return randomAlphanumeric(GENERATED_LENGTH);
}

/** Why `value` cannot be a custom token, or null when it can. Never echoes the value. */
export function tokenValueProblem(field: 'apiKey' | 'managementSecret', value: string): string | null {
  if (TOKEN_VALUE.test(value)) return null;
  return `${field} must be 8 to 256 printable ASCII characters without spaces (got ${value.length} characters)`;
}
