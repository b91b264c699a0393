import type { SupervisorStatus } from '../../infra/process-supervisor.js';
import type { BridgeSection } from '../app-config/schema.js';
import { credentialsExpireAt, isExpired, type AuthMethod, type BridgeCredentials } from './credentials.js';

/** `GET /api/bridge/status` (decisions §6). */
export interface BridgeStatus {
  enabled: boolean;
  /** Credentials exist and have not expired. */
  authenticated: boolean;
  authMethod: AuthMethod | null;
  /** Hours since the import, one decimal. */
  tokenAgeHours: number | null;
  tokenExpired: boolean;
  expiresAt: number | null;
  daemonRunning: boolean;
  pid: number | null;
  /** The running daemon's port, else the configured one. */
  port: number;
  autoStart: boolean;
  ghostMode: boolean;
}

export function describeStatus(settings: BridgeSection, creds: BridgeCredentials | null, daemon: SupervisorStatus, now: number): BridgeStatus {
  const expired = creds ? isExpired(creds, now) : false;
  const running = daemon.state === 'running';
  return {
    enabled: settings.enabled,
    authenticated: creds !== null && !expired,
    authMethod: creds?.authMethod ?? null,
    tokenAgeHours: creds ? Math.max(0, Math.floor((now - creds.importedAt) / 360_000) / 10) : null,
    tokenExpired: expired,
    expiresAt: creds ? credentialsExpireAt(creds) : null,
    daemonRunning: running,
    pid: running ? (daemon.pid ?? null) : null,
    port: running ? (daemon.port ?? settings.port) : settings.port,
    autoStart: settings.auto_start,
    ghostMode: settings.ghost_mode,
  };
}
