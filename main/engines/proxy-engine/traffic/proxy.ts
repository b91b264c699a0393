import type http from 'node:http';
import path from 'node:path';
import { parseErrorBody, toAnthropicError, toOpenAIError } from '../../translate/index.js';
import { clientErrorBody, sendJson, type ClientFormat } from '../client-errors.js';
import type { EngineContext } from '../context.js';
import type { ClientBody } from './client-body.js';
import type { RequestRecord } from './error-log.js';
import type { Hangup } from './hangup.js';
import { cooldownMs } from './key-pool.js';
import { planFor, type TrafficPlan } from './plan.js';
import type { WholeAnswer } from './plan-responses.js';
import { collectBody, relayStream, StallError } from './relay.js';
import type { Attempt } from './select.js';
import { callUpstream, UpstreamFailure } from './upstream-call.js';
import { upstreamEndpoint, type UpstreamEndpoint } from './upstream-endpoint.js';
import type { UpstreamResponse } from './upstream-response.js';
import { forwardedResponseHeaders, upstreamHeaders } from './upstream-headers.js';
import { UsageSniffer } from './usage-sniffer.js';
import { isAccountUpstream } from '../providers/account-upstream.js';
import { prepareAccountCall } from '../providers/account-call.js';
import { trafficState } from './state.js';
import { accountRefusal } from '../providers/account-refusal.js';
import { callCliproxy, cliproxyKeyRefused } from '../providers/cliproxy/cliproxy-call.js';

/** Non-streaming upstream bodies beyond this are refused (no real completion comes close). */
const MAX_UPSTREAM_BODY = 64 * 1024 * 1024;

export interface ForwardCall {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  client: ClientFormat;
  endpoint: 'messages' | 'count_tokens' | 'chat';
  request: ClientBody;
  search: string;
  clientModel: string;
  upstreamModel: string;
  record: RequestRecord;
  hangup: Hangup;
}

interface Failure {
  status: number;
  /** The upstream's error body, when it sent one; else `message` is the whole story. */
  upstreamBody?: string;
  upstreamFormat?: ClientFormat | 'responses';
  message: string;
}

/**
 * Tries the attempts in order until one answers. A 429, a 5xx, a connect failure, a timeout or a
 * stream that dies before its first byte moves on to the next key (cooling the failed one); any
 * other upstream status is the answer. The client sees nothing until an attempt succeeds or all
 * have failed, so every failure it does see is a proper JSON error in its own format.
 */
export async function forward(ctx: EngineContext, call: ForwardCall, attempts: Attempt[]): Promise<void> {
  const timeouts = { connectMs: ctx.config.routing.connect_timeout_seconds * 1000, firstByteMs: ctx.config.routing.first_byte_timeout_seconds * 1000 };
  let last: Failure = { status: 502, message: 'No upstream attempt was possible' };
  for (const attempt of attempts) {
    if (call.hangup.gone) return;
    const { upstream, pool, slot } = attempt;
    let plan: TrafficPlan;
    try {
      plan = planFor(upstream, call);
    } catch (err) {
      // The translator met a shape the client's format does not allow: the client's mistake.
      sendFailure(call, { status: 400, message: `Invalid request body: ${(err as Error).message}` });
      return;
    }
    const key = pool.key(slot);
    const viaCliproxy = isAccountUpstream(upstream) && upstream.via === 'cliproxy';
    // Through CLIProxyAPI the binary picks the account; the engine knows only the binary.
    const account = isAccountUpstream(upstream) && !viaCliproxy ? upstream.accounts[slot] : undefined;
    call.record.via = viaCliproxy ? 'cliproxy' : null;
    call.record.upstream = upstream.name;
    call.record.keyIndex = key && !viaCliproxy ? slot : null;
    call.record.account = account?.email ?? null;
    call.record.modelSent = call.upstreamModel;
    let endpoint: UpstreamEndpoint;
    let headers: Record<string, string>;
    if (isAccountUpstream(upstream)) {
      const prepared = await prepareAccountCall(trafficState(ctx).accounts, { upstream, slot, plan, req: call.req, request: call.request, search: call.search, now: ctx.now(), cooldownSeconds: ctx.config.routing.cooldown_seconds, proxyDir: path.dirname(ctx.configPath) });
      if (!prepared.ok) {
        last = { status: prepared.status, message: prepared.message };
        continue;
      }
      ({ endpoint, headers } = prepared);
    } else {
      endpoint = upstreamEndpoint(upstream, plan.upstreamPath, call.client === 'anthropic' ? call.search : '');
      headers = upstreamHeaders(upstream, key, call.client, call.req, plan.stream);
    }
    const log = call.record.addAttempt({
      timestamp: ctx.now(),
      upstream: upstream.name,
      keyLabel: account ? `account ${account.email}` : viaCliproxy ? 'CLIProxyAPI' : key ? `key ${slot + 1} of ${pool.keys.length}` : 'no key',
      url: endpoint.href,
      headers,
      body: plan.body,
    });
    let res: UpstreamResponse;
    try {
      const target = { endpoint, headers, body: plan.body };
      res = await (viaCliproxy ? callCliproxy(path.dirname(ctx.configPath), upstream.name, target, call.hangup, timeouts, ctx.now) : callUpstream(target, call.hangup, timeouts));
    } catch (err) {
      if (call.hangup.gone) return;
      const failure = err instanceof UpstreamFailure ? err : new UpstreamFailure(String(err), 502);
      log.error = failure.message;
      pool.coolDown(slot, ctx.now(), ctx.config.routing.cooldown_seconds * 1000);
      last = { status: failure.status, message: failure.message };
      continue;
    }
    log.status = res.statusCode;
    if (log.status >= 400) {
      const text = await collectBody(res, timeouts.firstByteMs, 1024 * 1024).then(String, (e: Error) => `<body unreadable: ${e.message}>`);
      call.hangup.onGone(undefined);
      log.responseBody = text;
      const keyRefused = viaCliproxy ? cliproxyKeyRefused(log.status, text) : undefined;
      if (keyRefused) {
        last = { status: 502, message: keyRefused };
        break;
      }
      if (isAccountUpstream(upstream) && !viaCliproxy) {
        if (log.status === 401 && upstream.name === 'ghcp') trafficState(ctx).accounts.copilotTokens.drop(upstream.accounts[slot]!.token);
        const refusal = accountRefusal(upstream, slot, log.status, text, ctx.now(), ctx.config.routing.cooldown_seconds);
        last = { status: refusal.status, message: refusal.message };
        if (refusal.tryNext) continue;
        break;
      }
      last = { status: log.status, upstreamBody: text, upstreamFormat: upstream.format, message: text };
      if (log.status === 429 || log.status >= 500) {
        pool.coolDown(slot, ctx.now(), cooldownMs(ctx.config.routing.cooldown_seconds, res.header('retry-after'), ctx.now()));
        continue;
      }
      break;
    }
    const done = plan.stream ? await relay(call, plan, res, timeouts.firstByteMs, log, ctx.now) : await respondWhole(call, plan, res, timeouts.firstByteMs, log);
    call.hangup.onGone(undefined);
    const ended = plan.streamFailure?.();
    // A quota answer inside the backend's 200 stream cools the account like a 429 would.
    if (ended && isAccountUpstream(upstream) && ended.status === 429) accountRefusal(upstream, slot, 429, JSON.stringify({ error: { message: ended.message } }), ctx.now(), ctx.config.routing.cooldown_seconds);
    // The session stays on the account that served it (prompt caches live per account).
    if (done === 'sent' && isAccountUpstream(upstream) && !viaCliproxy && call.record.session && ctx.config.routing.session_affinity) {
      trafficState(ctx).affinity.remember(call.record.session, upstream, slot, ctx.now());
    }
    if (done === 'sent' || done === 'aborted') return;
    pool.coolDown(slot, ctx.now(), ctx.config.routing.cooldown_seconds * 1000);
    last = done;
  }
  if (call.hangup.gone) return;
  sendFailure(call, last);
}

type StepResult = 'sent' | 'aborted' | Failure;

async function relay(call: ForwardCall, plan: TrafficPlan, res: UpstreamResponse, idleMs: number, log: { error?: string }, now: () => number): Promise<StepResult> {
  const sniffer = new UsageSniffer();
  const record = call.record;
  // Every field written, in one literal: a spread before the other fields made V8 build this
  // object the slow way (~7 µs a request in a profile of the translated path).
  const outcome = await relayStream(res, call.res, {
    translator: plan.createStream?.(),
    errorFrame: (status, message) => errorFrame(call.client, status, message),
    idleMs,
    hangup: call.hangup,
    headers: plan.createStream ? {} : forwardedResponseHeaders(res.headers),
    observe: (chunk) => sniffer.feed(chunk),
    onCommit: () => (record.firstByteAt = now()),
  });
  record.takeUsage(sniffer);
  switch (outcome.kind) {
    case 'done':
      record.finish(200, '<event stream relayed to the client>');
      // The upstream reported a failure inside the stream: relayed as it came, but not a success.
      if (sniffer.streamError !== undefined) {
        log.error = sniffer.streamError;
        record.streamFailed(502, sniffer.streamError);
      } else {
        // A translated stream whose upstream failed in its own words (a Responses `response.failed`).
        const failure = plan.streamFailure?.();
        if (failure) {
          log.error = failure.message;
          record.streamFailed(failure.status, failure.message);
        }
      }
      return 'sent';
    case 'broken':
      log.error = outcome.message;
      record.finish(200, `<event stream cut after its start: ${outcome.message}>`);
      record.streamFailed(outcome.status, outcome.message);
      return 'sent';
    case 'aborted':
      return 'aborted';
    case 'retry':
      log.error = outcome.message;
      return { status: outcome.status, message: outcome.message };
  }
}

async function respondWhole(call: ForwardCall, plan: TrafficPlan, res: UpstreamResponse, idleMs: number, log: { error?: string }): Promise<StepResult> {
  let body: Buffer;
  try {
    body = await collectBody(res, idleMs, MAX_UPSTREAM_BODY);
  } catch (err) {
    if (call.hangup.gone) return 'aborted';
    log.error = (err as Error).message;
    return { status: err instanceof StallError ? err.status : 502, message: (err as Error).message };
  }
  if (plan.decodeWhole) return answerGathered(call, plan.decodeWhole(body), log);
  if (!plan.mapResponse) {
    call.record.takeUsage(new UsageSniffer().readBody(body));
    call.res.writeHead(res.statusCode, { 'content-type': res.header('content-type') ?? 'application/json', 'content-length': body.length, ...forwardedResponseHeaders(res.headers) });
    call.res.end(body);
    call.record.finish(res.statusCode, '<upstream body passed through>');
    return 'sent';
  }
  let mapped: unknown;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { usage?: unknown };
    const usage = new UsageSniffer();
    usage.take(parsed?.usage);
    call.record.takeUsage(usage);
    mapped = plan.mapResponse(parsed);
  } catch (err) {
    // The upstream did the work (and billed it): retrying elsewhere could run it twice.
    log.error = `Upstream answer could not be translated: ${(err as Error).message}`;
    sendFailure(call, { status: 502, message: 'Upstream answered with a body that could not be translated' });
    return 'sent';
  }
  sendJson(call.res, 200, mapped);
  call.record.finish(200, '<translated upstream body>');
  return 'sent';
}

/**
 * A whole answer gathered from an upstream that always streams. A quota or server failure inside
 * that stream moves on to the next account; any other failure is the client's answer.
 */
function answerGathered(call: ForwardCall, result: WholeAnswer, log: { error?: string }): StepResult {
  if ('failure' in result) {
    log.error = result.failure.message;
    if (result.failure.status === 429 || result.failure.status >= 500) return { status: result.failure.status, message: result.failure.message };
    sendFailure(call, { status: result.failure.status, message: result.failure.message });
    return 'sent';
  }
  const usage = new UsageSniffer();
  usage.take(result.usage);
  call.record.tokens = usage.tokens();
  sendJson(call.res, 200, result.answer);
  call.record.finish(200, '<answer gathered from the upstream stream>');
  return 'sent';
}

/** The final error in the client's format; an upstream error body of the client's own format passes unchanged. */
function sendFailure(call: ForwardCall, failure: Failure): void {
  let body: unknown;
  if (failure.upstreamBody !== undefined) {
    const verbatim = failure.upstreamFormat === call.client ? parseObject(failure.upstreamBody) : undefined;
    body = verbatim ?? (call.client === 'anthropic' ? toAnthropicError(failure.status, failure.upstreamBody) : toOpenAIError(failure.status, failure.upstreamBody));
  } else {
    body = clientErrorBody(call.client, failure.status, failure.message);
  }
  const text = JSON.stringify(body);
  call.record.finish(failure.status, text);
  call.record.error = failure.upstreamBody !== undefined ? parseErrorBody(failure.upstreamBody).message : failure.message;
  if (call.res.headersSent) return;
  call.res.writeHead(failure.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  call.res.end(text);
}

/** An SSE error frame in the client's format, for a passthrough stream that breaks mid-way. */
function errorFrame(client: ClientFormat, status: number, message: string): string {
  const body = JSON.stringify(clientErrorBody(client, status, message));
  return client === 'anthropic' ? `event: error\ndata: ${body}\n\n` : `data: ${body}\n\n`;
}

function parseObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && 'error' in value ? value : undefined;
  } catch {
    return undefined;
  }
}
