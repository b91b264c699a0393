import type http from 'node:http';
import { estimateInputTokens, type AnthropicRequest } from '../../translate/index.js';
import { clientErrorBody, clientFormatFor, sendJson } from '../client-errors.js';
import type { EngineContext } from '../context.js';
import { listModels } from '../models.js';
import { sessionKey } from '../sessions.js';
import { RequestRecord } from './error-log.js';
import { forward } from './proxy.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { matchTrafficRoute } from './routes.js';
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
  const client = clientFormatFor(pathname);
  const endpoint = route.endpoint;
  if (endpoint === 'models') {
    sendPinnedModels(res, ctx, route.pinned ?? '');
    return true;
  }
  const state = trafficState(ctx);
  const record = new RequestRecord(req, ctx.now());
  const controller = new AbortController();
  // A client that disconnects aborts the upstream request at once.
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const answer = (status: number, payload: unknown): void => {
    record.finish(status, JSON.stringify(payload));
    sendJson(res, status, payload);
  };
  const reject = (status: number, message: string): void => answer(status, clientErrorBody(client, status, message));

  const serve = async (): Promise<void> => {
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch (err) {
      if (err instanceof BodyTooLargeError) reject(413, 'Request body too large');
      return; // otherwise the client went away mid-upload
    }
    record.body = raw;
    const body = parseBody(raw);
    if (!body) return reject(400, 'Invalid JSON in request body: expected a JSON object');
    ctx.sessions.record(
      sessionKey({
        userId: (body.metadata as { user_id?: unknown } | undefined)?.user_id,
        sessionHeader: req.headers['x-session-id'],
        remoteAddress: req.socket.remoteAddress,
        userAgent: req.headers['user-agent'],
      }),
      ctx.now(),
    );
    const model = body.model;
    if (typeof model !== 'string' || model === '') return reject(400, 'model: a model name is required');
    if (!Array.isArray(body.messages)) return reject(400, 'messages: an array of messages is required');
    const resolved = resolveUpstreams(ctx.config, model, route.pinned);
    if (!resolved.ok) return reject(resolved.status, resolved.message);
    let upstreams = resolved.upstreams;
    if (endpoint === 'count_tokens') {
      // Only an Anthropic upstream can count exactly; for the others the engine estimates.
      upstreams = upstreams.filter((u) => u.format === 'anthropic');
      if (upstreams.length === 0) return answer(200, { input_tokens: estimateInputTokens(body as unknown as AnthropicRequest) });
    }
    const attempts = attemptOrder(upstreams, (u) => state.poolOf(u), ctx.now());
    const search = q === -1 ? '' : url.slice(q);
    const call = { req, res, client, endpoint, body, raw, search, clientModel: model, upstreamModel: resolved.upstreamModel, record, signal: controller.signal };
    await forward(ctx, call, attempts);
  };

  try {
    await serve();
  } finally {
    // A client that hung up is not a failure of ours; it is logged only when an upstream attempt failed too.
    const failedAttempt = record.attempts.some((a) => a.error !== undefined || (a.status ?? 0) >= 400);
    if (controller.signal.aborted ? failedAttempt : record.failed) {
      if (record.status === 0) record.finish(499, '<client closed the connection>');
      void state.errorLogs.write(record, pathname);
    }
  }
  return true;
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
