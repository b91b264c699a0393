import type http from 'node:http';
import { estimateInputTokens, type AnthropicRequest } from '../../translate/index.js';
import { clientErrorBody, clientFormatFor, sendJson, type ClientFormat } from '../client-errors.js';
import type { EngineContext } from '../context.js';
import { sessionKey } from '../sessions.js';
import { RequestRecord } from './error-log.js';
import { finishRequest } from './finish-request.js';
import { Hangup } from './hangup.js';
import { forward } from './proxy.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { ClientBody } from './client-body.js';
import type { Endpoint } from './routes.js';
import { attemptOrder, resolveUpstreams } from './select.js';
import { isAccountUpstream } from '../providers/account-upstream.js';
import { trafficState } from './state.js';

export type TrafficEndpoint = Exclude<Endpoint, 'models' | 'model'>;

/**
 * Routes client traffic (POST /v1/messages[/count_tokens], /v1/chat/completions and the
 * `/api/provider/<name>/...` aliases) to the upstreams. Called by the server after the API-key
 * check, with the matched route.
 */
export async function handleTraffic(req: http.IncomingMessage, res: http.ServerResponse, ctx: EngineContext, endpoint: TrafficEndpoint, pinned: string | undefined): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const hangup = new Hangup();
  // A client that disconnects aborts the upstream request at once. (`on`: 'close' fires once per
  // response, and `once` would build a wrapper per request on this hot path; so too elsewhere here.)
  res.on('close', () => {
    if (!res.writableFinished) hangup.fire();
  });
  const client = clientFormatFor(pathname);
  const record = new RequestRecord(req, ctx.now(), client);
  const search = q === -1 ? '' : url.slice(q);
  const exchange: Exchange = { req, res, client, endpoint, pinned, search, record, hangup };
  try {
    await serve(ctx, exchange);
  } catch (err) {
    // The server answers 500 for it; the request log and the error log say so too (not `ok`).
    if (record.status === 0 && !hangup.gone) {
      record.finish(500, JSON.stringify(clientErrorBody(client, 500, 'Internal proxy error')));
      record.error = `Internal proxy error: ${err instanceof Error ? err.message : String(err)}`;
    }
    throw err;
  } finally {
    finishRequest(ctx, record, pathname, hangup.gone);
  }
}

/** One client request on a traffic route, as it travels through `serve`. */
interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  client: ClientFormat;
  endpoint: TrafficEndpoint;
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
  // Routing needs a few top-level fields; the whole body is parsed only when a step needs it.
  const request = ClientBody.of(raw);
  if (!request) return reject(x, 400, 'Invalid JSON in request body: expected a JSON object');
  const { facts } = request;
  const headers = x.req.headers;
  const session = sessionKey({ userId: facts.userId, sessionHeader: headers['x-session-id'], remoteAddress: x.req.socket.remoteAddress, userAgent: headers['user-agent'] });
  ctx.sessions.record(session, ctx.now());
  x.record.session = session;
  const model = facts.model;
  if (typeof model !== 'string' || model === '') return reject(x, 400, 'model: a model name is required');
  x.record.modelRequested = model;
  if (!facts.hasMessages) return reject(x, 400, 'messages: an array of messages is required');
  const state = trafficState(ctx);
  const resolved = resolveUpstreams(ctx.config, model, x.pinned, await state.accounts.current());
  if (!resolved.ok) return reject(x, resolved.status, resolved.message);
  let upstreams = resolved.upstreams;
  if (x.endpoint === 'count_tokens') {
    // Only an Anthropic upstream can count exactly; for the others the engine estimates.
    upstreams = upstreams.filter((u) => u.format === 'anthropic');
    if (upstreams.length === 0) {
      let estimate: number;
      try {
        estimate = estimateInputTokens(request.parsed() as unknown as AnthropicRequest);
      } catch (err) {
        // A shape the estimate cannot read (content: null, a broken value deep inside): the client's mistake.
        return reject(x, 400, `Invalid request body: ${(err as Error).message}`);
      }
      return answer(x, 200, { input_tokens: estimate });
    }
  }
  const now = ctx.now();
  const sticky = ctx.config.routing.session_affinity;
  const attempts = attemptOrder(upstreams, state.poolOf, now, (u) => (sticky && isAccountUpstream(u) ? state.affinity.slotFor(session, u, now) : undefined));
  const { req, res, client, endpoint, search, record, hangup } = x;
  await forward(ctx, { req, res, client, endpoint, request, search, clientModel: model, upstreamModel: resolved.upstreamModel, record, hangup }, attempts);
}

function answer(x: Exchange, status: number, payload: unknown): void {
  x.record.finish(status, JSON.stringify(payload));
  sendJson(x.res, status, payload);
}

function reject(x: Exchange, status: number, message: string): void {
  x.record.error = message;
  answer(x, status, clientErrorBody(x.client, status, message));
}

