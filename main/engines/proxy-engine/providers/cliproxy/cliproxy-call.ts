import type http from 'node:http';
import type { TrafficPlan } from '../../traffic/plan.js';
import type { Hangup } from '../../traffic/hangup.js';
import { callUpstream, UpstreamFailure, type Timeouts, type UpstreamTarget } from '../../traffic/upstream-call.js';
import { endpointFor, type UpstreamEndpoint } from '../../traffic/upstream-endpoint.js';
import type { UpstreamResponse } from '../../traffic/upstream-response.js';
import type { AccountUpstream } from '../account-upstream.js';
import { cliproxyExpectedUp, cliproxyInstalled, readCliproxyTarget } from './target.js';

const ANTHROPIC_VERSION = '2023-06-01';
/** How long a refused connection is waited out while the binary is (re)starting: an update's restart takes a few seconds. */
export const CLIPROXY_RETRY_WINDOW_MS = 10_000;
const RETRY_POLL_MS = 100;

const INSTALL_HINT = 'install it on the dashboard (Proxy → CLIProxyAPI) or with `switchboard cliproxy install`';
const START_HINT = 'start it on the dashboard (Proxy → CLIProxyAPI) or restart the proxy, which starts it when an account needs it';

export type PreparedCliproxyCall = { ok: true; headers: Record<string, string>; endpoint: UpstreamEndpoint } | { ok: false; status: number; message: string };

/**
 * The binary's address and key (read per call: an update may have restarted it), the Anthropic
 * headers, and the client's query (`?beta=true`). No config yet means it never ran here.
 */
export async function prepareCliproxyCall(proxyDir: string, upstream: AccountUpstream, plan: TrafficPlan, req: http.IncomingMessage, search: string): Promise<PreparedCliproxyCall> {
  const target = await readCliproxyTarget(proxyDir);
  if (!target) return { ok: false, status: 503, message: await notServing(proxyDir, upstream.name) };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: plan.stream ? 'text/event-stream' : 'application/json',
    authorization: `Bearer ${target.apiKey}`,
  };
  const version = req.headers['anthropic-version'];
  headers['anthropic-version'] = typeof version === 'string' && version ? version : ANTHROPIC_VERSION;
  const beta = req.headers['anthropic-beta'];
  if (typeof beta === 'string' && beta) headers['anthropic-beta'] = beta;
  const ua = req.headers['user-agent'];
  if (typeof ua === 'string' && ua) headers['user-agent'] = ua;
  return { ok: true, headers, endpoint: endpointFor(`http://127.0.0.1:${target.port}`, plan.upstreamPath, search) };
}

/**
 * One call to the binary. A refused connection while the binary should be up (its state file, or
 * the app's "starting" marker during an update's restart or a lazy start) is tried again every
 * 100 ms for up to 10 s, so a request that arrives mid-restart is served by the new process
 * instead of failing. Otherwise, or when the window ends, 503 saying what to do.
 */
export async function callCliproxy(proxyDir: string, provider: string, target: UpstreamTarget, hangup: Hangup, timeouts: Timeouts, now: () => number): Promise<UpstreamResponse> {
  const started = now();
  let current = target;
  let retried = false;
  for (;;) {
    try {
      // The same target again is fine: callUpstream only (re)sets content-length on its headers.
      return await callUpstream(current, hangup, timeouts);
    } catch (err) {
      if (!(err instanceof UpstreamFailure) || err.code !== 'ECONNREFUSED') throw err;
      const waited = now() - started;
      if (waited >= CLIPROXY_RETRY_WINDOW_MS || !(await cliproxyExpectedUp(proxyDir, now()))) {
        const message = retried ? `CLIProxyAPI did not come back within ${Math.round(waited / 1000)} s; ${START_HINT}` : await notServing(proxyDir, provider);
        throw new UpstreamFailure(message, 503);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_POLL_MS));
      if (hangup.gone) throw err;
      current = await retarget(proxyDir, current);
      retried = true;
    }
  }
}

/** Why the binary cannot take the request, and what to do about it. */
async function notServing(proxyDir: string, provider: string): Promise<string> {
  if (!(await cliproxyInstalled(proxyDir))) return `${provider} accounts are served by CLIProxyAPI, which is not installed: ${INSTALL_HINT}`;
  return `${provider} accounts are served by CLIProxyAPI, which is not running: ${START_HINT}`;
}

/**
 * What a refusal of the binary means. 401/403 is the binary refusing the engine's key (the
 * generated config changed under it): the binary's own words would mislead a client, so say what
 * to do. Anything else is the binary's Anthropic error, passed on.
 */
export function cliproxyKeyRefused(status: number, body: string): string | undefined {
  // CLIProxyAPI's own key check answers `{"error":"Invalid API key"}` / `"Missing API key"`; an
  // account's 401 from the provider comes in the provider's words and is passed on.
  if ((status !== 401 && status !== 403) || !/(Invalid|Missing) API key/i.test(body)) return undefined;
  return `CLIProxyAPI refused the engine's key (${status}): the key in proxy/cliproxy/config.yaml no longer matches the running binary; restart it from the dashboard (Proxy → CLIProxyAPI)`;
}

/** The same call aimed at the binary's address and key as its config says now (a fresh config after an uninstall and install moves both). */
async function retarget(proxyDir: string, target: UpstreamTarget): Promise<UpstreamTarget> {
  const now = await readCliproxyTarget(proxyDir);
  if (!now) return target;
  const endpoint = endpointFor(`http://127.0.0.1:${now.port}`, target.endpoint.path, '');
  return { ...target, endpoint, headers: { ...target.headers, authorization: `Bearer ${now.apiKey}` } };
}
