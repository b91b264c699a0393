import type http from 'node:http';
import type { ClientBody } from '../traffic/client-body.js';
import type { TrafficPlan } from '../traffic/plan.js';
import { endpointFor, upstreamEndpoint, type UpstreamEndpoint } from '../traffic/upstream-endpoint.js';
import type { AccountScan } from './account-scan.js';
import type { AccountUpstream } from './account-upstream.js';
import { prepareCliproxyCall } from './cliproxy/cliproxy-call.js';
import { codexHeaders } from './codex/headers.js';
import { CopilotTokenError } from './ghcp/copilot-token.js';
import { copilotHeaders } from './ghcp/headers.js';

const ANTHROPIC_VERSION = '2023-06-01';

export type PreparedCall = { ok: true; headers: Record<string, string>; endpoint: UpstreamEndpoint } | { ok: false; status: number; message: string };

export interface AccountCallInput {
  upstream: AccountUpstream;
  slot: number;
  plan: TrafficPlan;
  req: http.IncomingMessage;
  request: ClientBody;
  search: string;
  now: number;
  cooldownSeconds: number;
  /** `{config_dir}/proxy/`: where the managed CLIProxyAPI's config says its port and key. */
  proxyDir: string;
}

/**
 * Where one attempt on an account goes and with which credentials. Codex sends the account's own
 * token; Copilot first exchanges the GitHub token for a short-lived Copilot token (cached), whose
 * answer also names the API base. A failed exchange cools the account and says why. agy, kiro and
 * gemini go to the managed CLIProxyAPI with its own key.
 */
export async function prepareAccountCall(scan: AccountScan, input: AccountCallInput): Promise<PreparedCall> {
  const { upstream, slot, plan, req } = input;
  if (upstream.via === 'cliproxy') return prepareCliproxyCall(input.proxyDir, upstream, plan, req, input.search);
  const account = upstream.accounts[slot]!;
  if (upstream.name === 'codex') {
    return { ok: true, headers: codexHeaders(account, plan.sessionKey, req.headers), endpoint: upstreamEndpoint(upstream, plan.upstreamPath, '') };
  }
  let copilot;
  try {
    copilot = await scan.copilotTokens.get(account.token);
  } catch (err) {
    const failure = err instanceof CopilotTokenError ? err : new CopilotTokenError(String(err), 502);
    // No subscription will not come back within seconds; a network failure may.
    const seconds = failure.status === 403 ? Math.max(input.cooldownSeconds, 600) : input.cooldownSeconds;
    upstream.pool.coolDownUntil(slot, input.now + seconds * 1000, failure.status === 403 ? 'no Copilot subscription' : 'Copilot token exchange failed');
    return { ok: false, status: failure.status, message: `ghcp account ${account.email}: ${failure.message}` };
  }
  const headers = copilotHeaders(copilot.token, input.request.parsed(), plan.stream);
  const anthropic = upstream.format === 'anthropic';
  if (anthropic) {
    const version = req.headers['anthropic-version'];
    headers['anthropic-version'] = typeof version === 'string' && version ? version : ANTHROPIC_VERSION;
    const beta = req.headers['anthropic-beta'];
    if (typeof beta === 'string' && beta) headers['anthropic-beta'] = beta;
  }
  return { ok: true, headers, endpoint: endpointFor(copilot.api, plan.upstreamPath, anthropic ? input.search : '') };
}
