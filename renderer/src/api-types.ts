/**
 * Response shapes of the management API, under the names the dashboard uses. Most come straight
 * from the zod schemas the server documents its routes with (main/api/schemas/), so a change on
 * the server shows up here as a type error. Imports are type-only: nothing of main/ or zod
 * reaches the bundle (test/architecture.test.ts holds the renderer to `import type`).
 */
import type { z } from 'zod';
import type { agentSettingsPutResponse, agentSettingsResponse, diagnosticsResponse } from '../../main/api/schemas/agent-tool.js';
import type { configPutResponse, configResponse } from '../../main/api/schemas/app-config.js';
import type { accountRemoveResponse, accountResponse, accountsListResponse, signInStartResponse, signInStateResponse } from '../../main/api/schemas/accounts.js';
import type {
  bridgeImportResponse,
  bridgeModelsResponse,
  bridgeSection,
  bridgeSettingsUpdateResponse,
  bridgeStartResponse,
  bridgeStatusResponse,
  bridgeStopResponse,
} from '../../main/api/schemas/bridge.js';
import type {
  cliproxyInstallBody,
  cliproxyInstallResponse,
  cliproxyPinResponse,
  cliproxyRunResponse,
  cliproxyStatusResponse,
  cliproxyStopResponse,
  cliproxyUninstallResponse,
} from '../../main/api/schemas/cliproxy.js';
import type { upstreamFormBody, upstreamFormResponse, upstreamHealthResponse } from '../../main/api/schemas/upstreams.js';
import type { addProviderBody, addProviderResponse, catalogResponse, connectionResult, testProviderBody } from '../../main/api/schemas/providers.js';
import type { presetDeletedResponse, presetResponse, presetsResponse } from '../../main/api/schemas/presets.js';
import type {
  authFilesResponse,
  errorLogsResponse,
  modelListResponse,
  proxyConfigPutResponse,
  proxyRestartResponse,
  proxyStartResponse,
  proxyStatusResponse,
  proxyStopResponse,
  quotaResponse,
  updateCheckResponse,
} from '../../main/api/schemas/proxy.js';
import type {
  applyPresetResponse,
  modelSuggestionsResponse,
  routeThroughProxyResponse,
  setDefaultResponse,
} from '../../main/api/schemas/profiles.js';
import type { claudeCodeApplyResponse, claudeCodeStatusResponse, claudeCodeUndoResponse } from '../../main/api/schemas/claude-code.js';
import type { profileSettingsResponse, profilesResponse, settingsDeleteResponse, settingsUpdateResponse } from '../../main/api/schemas/settings.js';
import type {
  agentsResponse,
  dailyResponse,
  hourlyResponse,
  insightsResponse,
  modelsResponse,
  monthlyResponse,
  projectsResponse,
  refreshResponse,
  sessionsResponse,
  statusResponse,
  summaryResponse,
} from '../../main/api/schemas/usage-responses.js';
import type { requestLogResponse, requestStatsResponse } from '../../main/api/schemas/traffic.js';
import type {
  sharedContentResponse,
  sharedLinkResponse,
  sharedListResponse,
  sharedSummaryResponse,
} from '../../main/api/schemas/shared.js';
import type {
  accountResetResponse,
  apiKeyChangeResponse,
  secretChangeResponse,
  tokensChangeResponse,
  tokensResponse,
} from '../../main/api/schemas/tokens.js';

/** The JSON a route answers with: its response schema's output. */
type Body<S extends z.ZodType> = z.output<S>;

export type ProfilesList = Body<typeof profilesResponse>;
export type ProfileEntry = ProfilesList['profiles'][number];
/**
 * The server hands `env` back as the file holds it (any value types, or none at all); the
 * profile editor reads it as strings, so this view keeps that narrower assumption.
 */
export type ProfileSettings = Omit<Body<typeof profileSettingsResponse>, 'settings'> & {
  settings: { env?: Record<string, string>; presets?: Preset[]; [key: string]: unknown };
};
export type SettingsUpdateResult = Body<typeof settingsUpdateResponse>;
export type ProfileDeleted = Body<typeof settingsDeleteResponse>;
export type PresetList = Body<typeof presetsResponse>;
export type Preset = PresetList['presets'][number];
export type PresetCreated = Body<typeof presetResponse>;
export type PresetDeleted = Body<typeof presetDeletedResponse>;
export type AccountReset = Body<typeof accountResetResponse>;

export type Tokens = Body<typeof tokensResponse>;
export type TokenValue = Tokens['apiKey'];
export type TokensChange = Body<typeof tokensChangeResponse>;
export type SecretChange = Body<typeof secretChangeResponse>;
export type ApiKeyChange = Body<typeof apiKeyChangeResponse>;
/**
 * Set and reset answer with both tokens, regenerate-secret and regenerate-api-key with their own
 * only; every answer that can change the API key names the profiles that followed (`updatedProfiles`).
 */
export type TokenWriteResult = TokensChange | SecretChange | ApiKeyChange;

export type SharedSummary = Body<typeof sharedSummaryResponse>;
export type SharedList = Body<typeof sharedListResponse>;
export type SharedItem = SharedList['items'][number];
export type SharedLinkResult = Body<typeof sharedLinkResponse>;
export type SharedContent = Body<typeof sharedContentResponse>;
/** Lists and content are addressed by the plural type; an item's own `type` is the singular. */
export type SharedType = SharedContent['type'];

export type AgentDiagnostics = Body<typeof diagnosticsResponse>;
export type AgentSettings = Body<typeof agentSettingsResponse>;
export type WriteResult = Body<typeof agentSettingsPutResponse>;

export type AppConfigResponse = Body<typeof configResponse>;
export type AppConfigSaved = Body<typeof configPutResponse>;

type ServerProxyStatus = Body<typeof proxyStatusResponse>;
/**
 * The server's `running: false` carries nothing else (decisions §4); the proxy control still
 * reads an optional `state` and `message` there, so that variant keeps them, optional.
 */
export type ProxyStatus = Extract<ServerProxyStatus, { running: true }> | { running: false; state?: string; message?: string };
export type ProxyStartResult = Body<typeof proxyStartResponse>;
export type ProxyRestartResult = Body<typeof proxyRestartResponse>;
export type ProxyStopResult = Body<typeof proxyStopResponse>;
export type UpdateCheck = Body<typeof updateCheckResponse>;
export type ProxyModels = Body<typeof modelListResponse>;
export type ProxyModel = ProxyModels['models'][number];
export type ErrorLogList = Body<typeof errorLogsResponse>;
export type ErrorLogFile = ErrorLogList['files'][number];
export type ProxyConfigSaved = Body<typeof proxyConfigPutResponse>;
export type AuthFiles = Body<typeof authFilesResponse>;
export type AuthFile = AuthFiles['files'][number];
export type Quota = Body<typeof quotaResponse>;
export type QuotaEntry = Quota['quotas'][number];

/**
 * A runtime list, so it cannot come from main/ (the server's is QUOTA_PROVIDERS in a module that
 * needs Node); test/renderer/src/api-types.test.ts keeps the two equal.
 */
export const PROVIDERS = ['agy', 'gemini', 'codex', 'iflow', 'kiro', 'ghcp'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** What the daily, hourly, monthly and model rows share, as the charts take them. */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  cost: number;
}
export type UsageSummary = Body<typeof summaryResponse>;
export type DailyEntry = Body<typeof dailyResponse>['daily'][number];
export type HourlyEntry = Body<typeof hourlyResponse>['hourly'][number];
export type MonthlyEntry = Body<typeof monthlyResponse>['monthly'][number];
export type ModelEntry = Body<typeof modelsResponse>['models'][number];
export type Insights = Body<typeof insightsResponse>;
export type Anomaly = Insights['anomalies'][number];
export type SessionsPage = Body<typeof sessionsResponse>;
export type Session = SessionsPage['sessions'][number];
export type CacheStatus = Body<typeof statusResponse>;
export type ScanProgress = NonNullable<CacheStatus['progress']>;
export type ProjectEntry = Body<typeof projectsResponse>['projects'][number];
export type RefreshResult = Body<typeof refreshResponse>;
export type AgentStatus = Body<typeof agentsResponse>['agents'][number];

export type BridgeStatus = Body<typeof bridgeStatusResponse>;
export type BridgeSettings = Body<typeof bridgeSection>;
export type BridgeSettingsSaved = Body<typeof bridgeSettingsUpdateResponse>;
export type BridgeModels = Body<typeof bridgeModelsResponse>;
/** Both ways of signing in (auto-detect and import) answer alike. */
export type BridgeSignedIn = Body<typeof bridgeImportResponse>;
export type BridgeStarted = Body<typeof bridgeStartResponse>;
export type BridgeStopped = Body<typeof bridgeStopResponse>;

/* Switching (issue 18): the default profile, presets applied, model suggestions, Claude Code's own settings, routing through the proxy. */
export type ProfileCards = ProfilesList;
export type ProfileCard = ProfileEntry;
export type DefaultSet = Body<typeof setDefaultResponse>;
export type PresetApplied = Body<typeof applyPresetResponse>;
export type ModelSuggestions = Body<typeof modelSuggestionsResponse>;
export type ClaudeCodeState = Body<typeof claudeCodeStatusResponse>;
export type ClaudeCodeApplied = Body<typeof claudeCodeApplyResponse>;
export type ClaudeCodeUndone = Body<typeof claudeCodeUndoResponse>;
export type RoutedThroughProxy = Body<typeof routeThroughProxyResponse>;

/** The proxy request log (issue 19). */
export type RequestList = Body<typeof requestLogResponse>;
export type RequestEntry = RequestList['requests'][number];
export type RequestStats = Body<typeof requestStatsResponse>;
export type RequestMinute = RequestStats['perMinute'][number];
/** Filters of GET /api/proxy/requests; empty values are left out of the query. */
export interface RequestFilters {
  status?: string;
  model?: string;
  upstream?: string;
  since?: string;
  limit?: number;
}

/** Issue 20's scan progress and anomaly baseline, as the usage status and insights give them. */
export type InsightsBaseline = Insights['baseline'];

/** Subscription accounts (decisions §4.1). */
export type AccountList = Body<typeof accountsListResponse>;
export type Account = AccountList['accounts'][number];
export type AccountAnswer = Body<typeof accountResponse>;
export type AccountRemoved = Body<typeof accountRemoveResponse>;
export type SignInStart = Body<typeof signInStartResponse>;
export type SignInState = Body<typeof signInStateResponse>;
/** `idc`: Kiro's IAM Identity Center (with startUrl and region). */
export type SignInMethod = 'browser' | 'device' | 'paste' | 'idc';
/** API providers from the catalogue (decisions §4.2, issue 30). */
export type ProviderCatalog = Body<typeof catalogResponse>;
export type CatalogProvider = ProviderCatalog['providers'][number];
export type AddProviderInput = z.input<typeof addProviderBody>;
export type ProviderAdded = Body<typeof addProviderResponse>;
export type ProviderTestInput = z.input<typeof testProviderBody>;
export type ConnectionResult = Body<typeof connectionResult>;
export type UpstreamHealthList = Body<typeof upstreamHealthResponse>;
export type UpstreamHealth = UpstreamHealthList['upstreams'][number];
export type UpstreamFormInput = z.input<typeof upstreamFormBody>;
export type UpstreamsSaved = Body<typeof upstreamFormResponse>;
/** The managed CLIProxyAPI binary (decisions §4.1, issue 31). */
export type CliproxyStatus = Body<typeof cliproxyStatusResponse>;
export type CliproxyInstallInput = z.input<typeof cliproxyInstallBody>;
export type CliproxyInstalled = Body<typeof cliproxyInstallResponse>;
export type CliproxyPinned = Body<typeof cliproxyPinResponse>;
export type CliproxyRun = Body<typeof cliproxyRunResponse>;
export type CliproxyStopped = Body<typeof cliproxyStopResponse>;
export type CliproxyRemoved = Body<typeof cliproxyUninstallResponse>;
