import type * as T from './api-types.js';

/**
 * The dashboard's only way to the management API: same-origin fetches, JSON bodies with
 * `Content-Type: application/json` (the API refuses other writes), and one error type that
 * carries the API's own `error` / `message` so notices can show them verbatim.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly detail: string | undefined,
    readonly body: Record<string, unknown>,
  ) {
    super(detail ? `${error}: ${detail}` : error);
  }
}

type Query = Record<string, string | number | undefined>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(method: string, path: string, body?: unknown, query?: Query): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // Every write declares JSON, even without a body: a cross-site form can never send that type.
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  const init: RequestInit = { method, headers, cache: 'no-store' };
  if (body !== undefined) init.body = JSON.stringify(body);
  let res: Response;
  try {
    res = await fetch(withQuery(path, query), init);
  } catch (err) {
    throw new ApiError(0, 'Cannot reach Switchboard', err instanceof Error ? err.message : String(err), {});
  }
  if (!res.ok) throw await toApiError(res);
  return res;
}

async function toApiError(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
    return new ApiError(res.status, error, typeof body.message === 'string' ? body.message : undefined, body);
  } catch {
    return new ApiError(res.status, `HTTP ${res.status} ${res.statusText}`, text.slice(0, 200) || undefined, {});
  }
}

async function json<R>(method: string, path: string, body?: unknown, query?: Query): Promise<R> {
  return (await send(method, path, body, query)).json() as Promise<R>;
}

async function text(path: string, query?: Query): Promise<string> {
  return (await send('GET', path, undefined, query)).text();
}

const enc = encodeURIComponent;

/** Usage queries all take the same optional window and timezone. */
export interface UsageQuery { since?: string; until?: string; tz?: string; agent?: string; by?: 'agent' }
/** Session order and filters (GET /api/usage/sessions). */
export interface SessionSelection { sort?: 'lastActivity' | 'cost' | 'tokens'; order?: 'asc' | 'desc'; project?: string; model?: string }

export const api = {
  profiles: () => json<T.ProfileCards>('GET', '/api/profiles'),
  setDefaultProfile: (profile: string) => json<T.DefaultSet>('PUT', '/api/profiles/default', { profile }),
  modelSuggestions: () => json<T.ModelSuggestions>('GET', '/api/profiles/model-suggestions'),
  routeThroughProxy: (profile: string) =>
    json<T.RoutedThroughProxy>('POST', `/api/profiles/${enc(profile)}/route-through-proxy`, {}),
  claudeCode: () => json<T.ClaudeCodeState>('GET', '/api/claude-code'),
  applyClaudeCode: (profile: string) => json<T.ClaudeCodeApplied>('POST', '/api/claude-code/apply', { profile }),
  undoClaudeCode: () => json<T.ClaudeCodeUndone>('POST', '/api/claude-code/undo'),
  restoreClaudeCode: () => json<T.ClaudeCodeUndone>('POST', '/api/claude-code/restore'),
  settings: (profile: string) => json<T.ProfileSettings>('GET', `/api/settings/${enc(profile)}`),
  settingsRaw: (profile: string) => json<T.ProfileSettings>('GET', `/api/settings/${enc(profile)}/raw`),
  saveSettings: (profile: string, settings: T.ProfileSettings['settings'], expectedMtime?: number) =>
    json<T.SettingsUpdateResult>('PUT', `/api/settings/${enc(profile)}`, { settings, expectedMtime }),
  deleteProfile: (profile: string) => json<T.ProfileDeleted>('DELETE', `/api/settings/${enc(profile)}`),
  presets: (profile: string) => json<T.PresetList>('GET', `/api/settings/${enc(profile)}/presets`),
  addPreset: (profile: string, preset: T.Preset) =>
    json<T.PresetCreated>('POST', `/api/settings/${enc(profile)}/presets`, preset),
  deletePreset: (profile: string, name: string) =>
    json<T.PresetDeleted>('DELETE', `/api/settings/${enc(profile)}/presets/${enc(name)}`),
  applyPreset: (profile: string, name: string, expectedMtime?: number) =>
    json<T.PresetApplied>('POST', `/api/settings/${enc(profile)}/presets/${enc(name)}/apply`, { expectedMtime }),
  resetDefaultAccount: () => json<T.AccountReset>('DELETE', '/api/accounts/reset-default'),

  tokens: () => json<T.Tokens>('GET', '/api/settings/auth/tokens'),
  tokensRaw: () => json<T.Tokens>('GET', '/api/settings/auth/tokens/raw'),
  setTokens: (body: { apiKey?: string; managementSecret?: string }) =>
    json<T.TokensChange>('PUT', '/api/settings/auth/tokens', body),
  regenerateSecret: () => json<T.SecretChange>('POST', '/api/settings/auth/tokens/regenerate-secret'),
  regenerateApiKey: () => json<T.ApiKeyChange>('POST', '/api/settings/auth/tokens/regenerate-api-key'),
  resetTokens: () => json<T.TokensChange>('POST', '/api/settings/auth/tokens/reset'),

  sharedSummary: () => json<T.SharedSummary>('GET', '/api/shared/summary'),
  sharedList: (type: T.SharedType) => json<T.SharedList>('GET', `/api/shared/${type}`),
  sharedLink: () => json<T.SharedLinkResult>('POST', '/api/shared/link'),
  sharedContent: (type: T.SharedType, path: string) =>
    json<T.SharedContent>('GET', '/api/shared/content', undefined, { type, path }),

  agentDiagnostics: () => json<T.AgentDiagnostics>('GET', '/api/agent-tool/diagnostics'),
  agentSettings: () => json<T.AgentSettings>('GET', '/api/agent-tool/settings'),
  saveAgentSettings: (content: string, expectedMtime?: number | null) =>
    json<T.WriteResult>('PUT', '/api/agent-tool/settings', { content, expectedMtime: expectedMtime ?? undefined }),

  config: () => json<T.AppConfigResponse>('GET', '/api/config'),
  saveConfig: (config: Record<string, unknown>, expectedMtime?: number | null) =>
    json<T.AppConfigSaved>('PUT', '/api/config', {
      config,
      expectedMtime: expectedMtime ?? undefined,
    }),

  proxyStatus: () => json<T.ProxyStatus>('GET', '/api/proxy/proxy-status'),
  proxyStart: () => json<T.ProxyStartResult>('POST', '/api/proxy/proxy-start'),
  proxyStop: () => json<T.ProxyStopResult>('POST', '/api/proxy/proxy-stop'),
  proxyRestart: () => json<T.ProxyRestartResult>('POST', '/api/proxy/proxy-restart'),
  /** `force`: "Check again" skips the server's fresh cached answer. */
  updateCheck: (force = false) => json<T.UpdateCheck>('GET', '/api/proxy/update-check', undefined, force ? { force: 'true' } : undefined),
  proxyModels: () => json<T.ProxyModels>('GET', '/api/proxy/models'),
  errorLogs: () => json<T.ErrorLogList>('GET', '/api/proxy/error-logs'),
  errorLog: (name: string) => text(`/api/proxy/error-logs/${enc(name)}`),
  proxyConfig: () => text('/api/proxy/config.yaml'),
  saveProxyConfig: (content: string) => json<T.ProxyConfigSaved>('PUT', '/api/proxy/config.yaml', { content }),
  authFiles: () => json<T.AuthFiles>('GET', '/api/proxy/auth-files'),
  authFileUrl: (name: string) => withQuery('/api/proxy/auth-files/download', { name }),
  quota: (provider: string, accountId: string) =>
    json<T.Quota>('GET', `/api/proxy/quota/${enc(provider)}/${enc(accountId)}`),
  proxyRequests: (q: T.RequestFilters) => json<T.RequestList>('GET', '/api/proxy/requests', undefined, { ...q }),
  proxyRequestStats: () => json<T.RequestStats>('GET', '/api/proxy/requests/stats'),

  usageSummary: (q: UsageQuery) => json<T.UsageSummary>('GET', '/api/usage/summary', undefined, { ...q }),
  usageDaily: (q: UsageQuery) => json<{ daily: T.DailyEntry[] }>('GET', '/api/usage/daily', undefined, { ...q }),
  usageHourly: (q: UsageQuery) => json<{ hourly: T.HourlyEntry[] }>('GET', '/api/usage/hourly', undefined, { ...q }),
  usageMonthly: (q: UsageQuery) => json<{ monthly: T.MonthlyEntry[] }>('GET', '/api/usage/monthly', undefined, { ...q }),
  usageModels: (q: UsageQuery) =>
    json<{ models: T.ModelEntry[]; totalCost: number }>('GET', '/api/usage/models', undefined, { ...q }),
  usageInsights: (q: UsageQuery) => json<T.Insights>('GET', '/api/usage/insights', undefined, { ...q }),
  usageSessions: (q: UsageQuery & SessionSelection & { limit: number; offset: number }) =>
    json<T.SessionsPage>('GET', '/api/usage/sessions', undefined, { ...q }),
  usageProjects: (q: UsageQuery) => json<{ projects: T.ProjectEntry[] }>('GET', '/api/usage/projects', undefined, { ...q }),
  usageRefresh: () => json<T.RefreshResult>('POST', '/api/usage/refresh'),
  usageStatus: () => json<T.CacheStatus>('GET', '/api/usage/status'),
  usageAgents: () => json<{ agents: T.AgentStatus[] }>('GET', '/api/usage/agents'),

  accounts: () => json<T.AccountList>('GET', '/api/accounts'),
  signIn: (provider: string, method?: T.SignInMethod, extra: { acknowledge?: boolean; projectId?: string; startUrl?: string; region?: string } = {}) =>
    json<T.SignInStart>('POST', `/api/accounts/${enc(provider)}/sign-in`, { ...(method ? { method } : {}), ...extra }),
  signInState: (id: string) => json<T.SignInState>('GET', `/api/accounts/sign-in/${enc(id)}`),
  signInCallback: (id: string, url: string) => json<T.SignInState>('POST', `/api/accounts/sign-in/${enc(id)}/callback`, { url }),
  cancelSignIn: (id: string) => json<T.SignInState>('DELETE', `/api/accounts/sign-in/${enc(id)}`),
  importAccount: (provider: string) => json<T.AccountAnswer>('POST', `/api/accounts/${enc(provider)}/import`, {}),
  accountAction: (provider: string, accountId: string, action: 'pause' | 'resume' | 'refresh') =>
    json<T.AccountAnswer>('POST', `/api/accounts/${enc(provider)}/${enc(accountId)}/${action}`),
  setAccountPriority: (provider: string, accountId: string, priority: number) =>
    json<T.AccountAnswer>('PUT', `/api/accounts/${enc(provider)}/${enc(accountId)}/priority`, { priority }),
  removeAccount: (provider: string, accountId: string) => json<T.AccountRemoved>('DELETE', `/api/accounts/${enc(provider)}/${enc(accountId)}`),

  /** `force`: "Check for updates" skips the server's hour-old answer of the release feed. */
  cliproxyStatus: (force = false) => json<T.CliproxyStatus>('GET', '/api/proxy/cliproxy', undefined, force ? { force: 'true' } : undefined),
  cliproxyInstall: (body: T.CliproxyInstallInput) => json<T.CliproxyInstalled>('POST', '/api/proxy/cliproxy/install', body),
  cliproxyPin: (version: string | null) => json<T.CliproxyPinned>('PUT', '/api/proxy/cliproxy/pin', { version }),
  cliproxyStart: () => json<T.CliproxyRun>('POST', '/api/proxy/cliproxy/start'),
  cliproxyStop: () => json<T.CliproxyStopped>('POST', '/api/proxy/cliproxy/stop'),
  cliproxyUninstall: () => json<T.CliproxyRemoved>('DELETE', '/api/proxy/cliproxy'),

  bridgeStatus: () => json<T.BridgeStatus>('GET', '/api/bridge/status'),
  bridgeAutoDetect: () => json<T.BridgeSignedIn>('POST', '/api/bridge/auth/auto-detect'),
  bridgeImport: (accessToken: string, machineId: string) =>
    json<T.BridgeSignedIn>('POST', '/api/bridge/auth/import', { accessToken, machineId }),
  bridgeModels: () => json<T.BridgeModels>('GET', '/api/bridge/models'),
  bridgeStart: () => json<T.BridgeStarted>('POST', '/api/bridge/daemon/start'),
  bridgeStop: () => json<T.BridgeStopped>('POST', '/api/bridge/daemon/stop'),
  bridgeSettings: () => json<T.BridgeSettings>('GET', '/api/bridge/settings'),
  saveBridgeSettings: (patch: Partial<T.BridgeSettings>) =>
    json<T.BridgeSettingsSaved>('PUT', '/api/bridge/settings', patch),
  providerCatalog: () => json<T.ProviderCatalog>('GET', '/api/providers/catalog'),
  testProvider: (body: T.ProviderTestInput) => json<T.ConnectionResult>('POST', '/api/providers/test', body),
  addProvider: (body: T.AddProviderInput) => json<T.ProviderAdded>('POST', '/api/providers', body),
  testProfile: (profile: string) => json<T.ConnectionResult>('POST', `/api/settings/${enc(profile)}/test`, {}),
  upstreamHealth: () => json<T.UpstreamHealthList>('GET', '/api/proxy/upstreams'),
  saveUpstreams: (body: T.UpstreamFormInput) => json<T.UpstreamsSaved>('PUT', '/api/proxy/upstreams', body),
};
