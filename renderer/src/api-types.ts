/**
 * Response shapes of the management API, as the spec and decisions.md define them. Kept here
 * (browser side) rather than imported from main/ so the dashboard builds even while an area's
 * schemas are in flux; the e2e tests catch any drift against the real server.
 */

export interface ProfileEntry { name: string; path: string; mtime: number }
export interface ProfileSettings {
  profile: string;
  settings: { env: Record<string, string>; presets?: Preset[]; [key: string]: unknown };
  mtime: number;
  path: string;
}
export interface SettingsUpdateResult {
  profile: string;
  mtime: number;
  backupPath?: string;
  created: boolean;
  warning?: string;
  missingFields?: string[];
}
export interface Preset { name: string; default: string; opus?: string; sonnet?: string; haiku?: string }

export interface TokenValue { value: string; isCustom: boolean }
export interface Tokens { apiKey: TokenValue; managementSecret: TokenValue }
export interface TokenWriteResult extends Partial<Tokens> { success: boolean; message: string; restartRequired?: boolean }

export type SharedType = 'commands' | 'skills' | 'agents';
/** `type` is the singular kind (`command`); lists and content are addressed by the plural SharedType. */
export interface SharedItem { name: string; description: string; path: string; type: string }
export interface SharedLinkResult extends SharedSummary { links: Array<{ type: SharedType; link: string; target: string; action: string; reason?: string }> }
export interface SharedSummary { commands: number; skills: number; agents: number; total: number; symlinkStatus: string }
export interface SharedContent { type: SharedType; path: string; content: string }

export interface AgentDiagnostics {
  binary: { installed: boolean; path: string | null; version: string | null };
  settingsFile: { path: string; exists: boolean; mtime: number | null; sizeBytes: number | null; parseError: string | null };
  warnings: string[];
}
export interface AgentSettings {
  path: string;
  exists: boolean;
  mtime: number | null;
  content: string;
  settings: unknown;
  parseError: string | null;
  diagnostics: AgentDiagnostics;
}
export interface WriteResult { success: boolean; mtime: number; backupPath?: string }

export interface AppConfigResponse { config: Record<string, unknown>; mtime: number | null; path: string }

export type ProxyStatus =
  | { running: false; state?: string; message?: string }
  | { running: true; port: number; pid: number; sessionCount: number; startedAt: number };
export interface ProxyStartResult { started: boolean; alreadyRunning: boolean; port: number }
export interface ProxyStopResult { stopped: boolean; pid?: number; sessionCount?: number; message?: string }
export interface UpdateCheck { hasUpdate: boolean; currentVersion: string; latestVersion: string; fromCache: boolean }
export interface ProxyModel { id: string; object: string; created: number; owned_by: string }
export interface ProxyModels { models: ProxyModel[]; byCategory: Record<string, ProxyModel[]>; totalCount: number }
export interface ErrorLogFile { name: string; size: number; mtime: number; absolutePath: string; statusCode: number | null; model: string | null }
export interface AuthFile { name: string; size: number; mtime: number }
export interface AuthFiles { files: AuthFile[]; directory: string }
export interface QuotaEntry { model: string; limit: number; used: number; remaining: number; resetAt: number | null }
export interface Quota { provider: string; accountId: string; quotas: QuotaEntry[] }
export const PROVIDERS = ['agy', 'gemini', 'codex', 'iflow', 'kiro', 'ghcp'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  cost: number;
}
export interface UsageSummary {
  totalTokens: number;
  totalCost: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  dailyAverage: { tokens: number; cost: number };
  dateRange: { from: string | null; to: string | null };
  modelsUsed: string[];
  unpricedModels?: string[];
}
export interface DailyEntry extends TokenCounts {
  date: string;
  modelsUsed: string[];
  modelBreakdown: Record<string, { inputTokens: number; outputTokens: number; cost: number }>;
}
export interface HourlyEntry extends TokenCounts { hour: string; modelsUsed: string[] }
export interface MonthlyEntry extends TokenCounts { month: string }
export interface ModelEntry extends TokenCounts { model: string; percentage: number; ioRatio: number | null }
export interface Anomaly { type: string; date: string; value: number; threshold: number; message: string }
export interface Insights { anomalies: Anomaly[]; thresholds: Record<string, number> }
export interface Session {
  sessionId: string;
  projectPath: string;
  lastActivity: string;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  modelsUsed: string[];
  version: string;
}
export interface SessionsPage { sessions: Session[]; total: number; limit: number; offset: number }
export interface CacheStatus {
  cached: boolean;
  lastFetch: number | null;
  lastFetchHuman: string | null;
  cacheAge: number | null;
  cacheAgeHuman: string | null;
}
export interface RefreshResult { success: boolean; message: string; timestamp: number }

export interface BridgeStatus {
  enabled: boolean;
  authenticated: boolean;
  authMethod: string | null;
  tokenAgeHours: number | null;
  tokenExpired: boolean;
  expiresAt: number | null;
  daemonRunning: boolean;
  pid: number | null;
  port: number;
  autoStart: boolean;
  ghostMode: boolean;
}
export interface BridgeSettings {
  enabled: boolean;
  port: number;
  auto_start: boolean;
  ghost_mode: boolean;
  model: string;
  opus_model: string;
  sonnet_model: string;
  haiku_model: string;
  upstream_url?: string;
  [key: string]: unknown;
}
export interface BridgeModels { models: Array<{ id: string; name: string; provider: string; isDefault: boolean }>; current: string }
export interface SuccessMessage { success: boolean; message?: string }
