import type http from 'node:http';
import { estimateInputTokens, type AnthropicRequest } from '../../translate/index.js';
import { clientErrorBody, clientFormatFor, sendJson, type ClientFormat } from '../client-errors.js';
import type { EngineContext } from '../context.js';
import { listModels } from '../models.js';
import { sessionKey } from '../sessions.js';
import { RequestRecord, type AttemptRecord } from './error-log.js';
import { Hangup } from './hangup.js';
import { forward } from './proxy.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { matchTrafficRoute, type Endpoint } from './routes.js';
import { attemptOrder, resolveUpstreams } from './select.js';
import { trafficState } from './state.js';

/**
 * Routes client traffic (POST /v1/messages[/count_tokens], /v1/chat/completions and the
 * `/api/provider/<name>/...` aliases) to the upstreams. Called by the server after the API-key
 * check; returns false when the route is not a traffic route (the server then answers 404).
 */
export async function handleTraffic(req: http.IncomingMessage, res: http.ServerResponse, ctx: EngineContext): Promise<boolean> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const route = matchTrafficRoute(req.method, pathname);
  if (!route) return false;
  if (route.endpoint === 'models') {
    sendPinnedModels(res, ctx, route.pinned ?? '');
    return true;
  }
  const hangup = new Hangup();
  // A client that disconnects aborts the upstream request at once.
  res.once('close', () => {
    if (!res.writableFinished) hangup.fire();
  });
  const record = new RequestRecord(req, ctx.now());
  const search = q === -1 ? '' : url.slice(q);
  const exchange: Exchange = { req, res, client: clientFormatFor(pathname), endpoint: route.endpoint, pinned: route.pinned, search, record, hangup };
  try {
    await serve(ctx, exchange);
  } finally {
    // A client that hung up is not a failure of ours; it is logged only when an upstream attempt failed too.
    if (hangup.gone ? record.attempts.some(attemptFailed) : record.failed) {
      if (record.status === 0) record.finish(499, '<client closed the connection>');
      void trafficState(ctx).errorLogs.write(record, pathname);
    }
  }
  return true;
}

/** One client request on a traffic route, as it travels through `serve`. */
interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  client: ClientFormat;
  endpoint: Exclude<Endpoint, 'models'>;
  pinned: string | undefined;
  /** The query string with its `?`, or ''. */
  search: string;
  record: RequestRecord;
  hangup: Hangup;
}

async function serve(ctx: EngineContext, x: Exchange): Promise<void> {
  let raw: Buffer;
  try {
    raw = await readBody(x.req);
  } catch (err) {
    if (err instanceof BodyTooLargeError) reject(x, 413, 'Request body too large');
    return; // otherwise the client went away mid-upload
  }
  x.record.body = raw;
  const body = parseBody(raw);
  if (!body) return reject(x, 400, 'Invalid JSON in request body: expected a JSON object');
  const metadata = body.metadata as { user_id?: unknown } | undefined;
  const headers = x.req.headers;
  ctx.sessions.record(sessionKey({ userId: metadata?.user_id, sessionHeader: headers['x-session-id'], remoteAddress: x.req.socket.remoteAddress, userAgent: headers['user-agent'] }), ctx.now());
  const model = body.model;
  if (typeof model !== 'string' || model === '') return reject(x, 400, 'model: a model name is required');
  if (!Array.isArray(body.messages)) return reject(x, 400, 'messages: an array of messages is required');
  const resolved = resolveUpstreams(ctx.config, model, x.pinned);
  if (!resolved.ok) return reject(x, resolved.status, resolved.message);
  let upstreams = resolved.upstreams;
  if (x.endpoint === 'count_tokens') {
    // Only an Anthropic upstream can count exactly; for the others the engine estimates.
    upstreams = upstreams.filter((u) => u.format === 'anthropic');
    if (upstreams.length === 0) return answer(x, 200, { input_tokens: estimateInputTokens(body as unknown as AnthropicRequest) });
  }
  const state = trafficState(ctx);
  const attempts = attemptOrder(upstreams, state.poolOf, ctx.now());
  const { req, res, client, endpoint, search, record, hangup } = x;
  await forward(ctx, { req, res, client, endpoint, body, raw, search, clientModel: model, upstreamModel: resolved.upstreamModel, record, hangup }, attempts);
}

function answer(x: Exchange, status: number, payload: unknown): void {
  x.record.finish(status, JSON.stringify(payload));
  sendJson(x.res, status, payload);
}

function reject(x: Exchange, status: number, message: string): void {
  answer(x, status, clientErrorBody(x.client, status, message));
}

function attemptFailed(a: AttemptRecord): boolean {
  return a.error !== undefined || (a.status ?? 0) >= 400;
}

function parseBody(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `/api/provider/<name>/v1/models`: the models of that one upstream, OpenAI list shape. */
function sendPinnedModels(res: http.ServerResponse, ctx: EngineContext, name: string): void {
  if (!ctx.config.upstreams.some((u) => u.name === name)) {
    sendJson(res, 404, clientErrorBody('openai', 404, `Unknown provider "${name}": no upstream of that name in proxy/config.yaml`));
    return;
  }
  const all = listModels(ctx);
  sendJson(res, 200, { object: 'list', data: all.data.filter((m) => m.owned_by === name) });
}
