/** Bridge credentials and their rules (spec 2.8, decisions §6); pure functions only. */
export type AuthMethod = 'auto-detect' | 'manual';

export interface BridgeCredentials {
  accessToken: string;
  /** 32 lowercase hex characters, hyphens removed. */
  machineId: string;
  authMethod: AuthMethod;
  /** ms since the epoch. */
  importedAt: number;
}

export const MIN_TOKEN_LENGTH = 51;
/** Lifetime of a token that carries no JWT `exp` claim. */
export const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The access token must be longer than 50 characters (whitespace around it is not part of it). */
export function normaliseToken(token: string): string | null {
  const trimmed = token.trim();
  return trimmed.length >= MIN_TOKEN_LENGTH && !/\s/.test(trimmed) ? trimmed : null;
}

/** Machine id: exactly 32 hex characters once hyphens are removed (a UUID with hyphens is fine). */
export function normaliseMachineId(machineId: string): string | null {
  const compact = machineId.trim().replace(/-/g, '');
  return /^[0-9a-fA-F]{32}$/.test(compact) ? compact.toLowerCase() : null;
}

/** Normalised credentials, or null when either value breaks its rule. */
export function makeCredentials(
  accessToken: string,
  machineId: string,
  authMethod: AuthMethod,
  importedAt: number,
): BridgeCredentials | null {
  const token = normaliseToken(accessToken);
  const id = normaliseMachineId(machineId);
  return token && id ? { accessToken: token, machineId: id, authMethod, importedAt } : null;
}

/**
 * The JWT `exp` claim in ms, or null when the token is not a JWT or has no numeric `exp`.
 * Only decodes; the signature is the upstream's business.
 */
export function jwtExpiry(token: string): number | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (typeof payload !== 'object' || payload === null) return null;
    const exp = (payload as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? Math.floor(exp * 1000) : null;
  } catch {
    return null;
  }
}

/** When the credentials stop working: the JWT `exp`, else 24 hours after the import. */
export function credentialsExpireAt(creds: Pick<BridgeCredentials, 'accessToken' | 'importedAt'>): number {
  return jwtExpiry(creds.accessToken) ?? creds.importedAt + TOKEN_LIFETIME_MS;
}

export function isExpired(creds: Pick<BridgeCredentials, 'accessToken' | 'importedAt'>, now: number): boolean {
  return now >= credentialsExpireAt(creds);
}

/** Parses a stored credentials file; anything malformed reads as "no credentials". */
export function parseStoredCredentials(raw: unknown): BridgeCredentials | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.accessToken !== 'string' || typeof r.machineId !== 'string') return null;
  const method: AuthMethod = r.authMethod === 'auto-detect' ? 'auto-detect' : 'manual';
  const importedAt = typeof r.importedAt === 'number' && Number.isFinite(r.importedAt) ? r.importedAt : 0;
  return makeCredentials(r.accessToken, r.machineId, method, importedAt);
}
