import { isRecord } from '../../../infra/json-checks.js';
import type { AuthRecord } from '../auth-store.js';

/** Where the Kiro IDE keeps its sign-in (reference §6): `~/.aws/sso/cache/kiro-auth-token.json`. */
export function kiroIdeAuthPaths(home: string): string[] {
  return [`${home}/.aws/sso/cache/kiro-auth-token.json`];
}

/** The enterprise client registration next to the token: `~/.aws/sso/cache/<clientIdHash>.json`. */
export function kiroClientPath(tokenFile: string, clientIdHash: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(clientIdHash)) return null;
  return tokenFile.replace(/kiro-auth-token\.json$/, `${clientIdHash}.json`);
}

export interface KiroIdeToken {
  accessToken: string;
  refreshToken: string;
  expiresAt: string | null;
  authMethod: string;
  provider: string;
  profileArn: string | null;
  region: string | null;
  clientIdHash: string | null;
  startUrl: string | null;
}

/**
 * The Kiro IDE's token file: `{accessToken, refreshToken, expiresAt, authMethod ("social" | "IdC"),
 * provider ("Google" | "Github" | "BuilderId" | "Enterprise"), profileArn?, region?, clientIdHash?}`.
 */
export function kiroTokenOfIdeFile(parsed: unknown): KiroIdeToken | null {
  if (!isRecord(parsed)) return null;
  if (typeof parsed.accessToken !== 'string' || typeof parsed.refreshToken !== 'string' || parsed.refreshToken === '') return null;
  const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    accessToken: parsed.accessToken,
    refreshToken: parsed.refreshToken,
    expiresAt: s(parsed.expiresAt),
    authMethod: s(parsed.authMethod) ?? 'social',
    provider: s(parsed.provider) ?? '',
    profileArn: s(parsed.profileArn),
    region: s(parsed.region),
    clientIdHash: s(parsed.clientIdHash),
    startUrl: s(parsed.startUrl),
  };
}

/** `{clientId, clientSecret}` of the registration file, when there is one. */
export function kiroClientOf(parsed: unknown): { clientId: string; clientSecret: string } | null {
  if (!isRecord(parsed) || typeof parsed.clientId !== 'string' || typeof parsed.clientSecret !== 'string') return null;
  return { clientId: parsed.clientId, clientSecret: parsed.clientSecret };
}

/**
 * CLIProxyAPI's kiro file (reference §6): `kiro-imported-<id>.json`, id = the profile ARN's last
 * segment, else the client id, else `account`.
 */
export function kiroRecord(token: KiroIdeToken, client: { clientId: string; clientSecret: string } | null): { file: string; record: AuthRecord } {
  const authMethod = token.authMethod.toLowerCase() === 'idc' ? (token.provider === 'BuilderId' ? 'builder-id' : 'idc') : 'social';
  const id = token.profileArn?.split('/').pop() || client?.clientId || 'account';
  const expires = token.expiresAt && !Number.isNaN(Date.parse(token.expiresAt)) ? new Date(token.expiresAt).toISOString() : null;
  return {
    file: `kiro-imported-${id.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/\.\.+/g, '.')}.json`,
    record: {
      type: 'kiro',
      access_token: token.accessToken,
      refresh_token: token.refreshToken,
      profile_arn: token.profileArn ?? '',
      ...(expires ? { expires_at: expires } : {}),
      auth_method: authMethod,
      provider: token.provider === 'BuilderId' || token.provider === 'Enterprise' ? 'AWS' : token.provider,
      client_id: client?.clientId ?? '',
      client_secret: client?.clientSecret ?? '',
      email: '',
      ...(token.startUrl ? { start_url: token.startUrl } : {}),
      ...(token.region ? { region: token.region } : {}),
    },
  };
}
