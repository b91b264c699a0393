import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbort, prepareRequest, relayUpstreamError, type PreparedRequest } from './route-common.js';
import { SSE_HEADERS } from '../translate/index.js';
import type { BridgeContext } from './server.js';
import { postChatCompletion, upstreamTimeoutMs } from './upstream.js';
import { UpstreamWatchdog } from './upstream-watchdog.js';
import { sendError, sendJson } from './wire-errors.js';

/** POST /v1/chat/completions: OpenAI clients; the upstream speaks the same format, so bodies pass through. */
export async function handleChatCompletions(req: IncomingMessage, res: ServerResponse, ctx: BridgeContext): Promise<void> {
  const prepared = await prepareRequest(req, res, ctx, 'openai');
  if (!prepared) return;
  const watchdog = new UpstreamWatchdog(prepared.signal, upstreamTimeoutMs(ctx.upstream));
  try {
    await answerChat(res, ctx, prepared, watchdog);
  } finally {
    watchdog.done();
  }
}

async function answerChat(res: ServerResponse, ctx: BridgeContext, prepared: PreparedRequest, watchdog: UpstreamWatchdog): Promise<void> {
  const { body, model, creds, signal } = prepared;
  const stream = body.stream === true;
  let upstream: Response;
  try {
    upstream = await postChatCompletion(ctx.upstream, creds, { ...body, model }, watchdog.signal);
  } catch (err) {
    if (watchdog.timedOut) sendError(res, 'openai', 504, `Upstream sent no response within ${watchdog.ms} ms`);
    else if (!isAbort(err, signal)) sendError(res, 'openai', 502, `Upstream unreachable: ${(err as Error).message}`);
    return;
  }
  watchdog.touch();
  if (!upstream.ok) {
    await relayUpstreamError(res, upstream, 'openai');
    return;
  }
  if (!stream) {
    const text = await upstream.text().catch(() => null);
    if (text === null) {
      if (watchdog.timedOut) sendError(res, 'openai', 504, `Upstream body stalled for ${watchdog.ms} ms`);
      return; // else aborted by the client
    }
    try {
      sendJson(res, 200, JSON.parse(text));
    } catch {
      sendError(res, 'openai', 502, 'Upstream answered with a body that is not JSON');
    }
    return;
  }
  await pipeStream(upstream, res, signal, watchdog);
}

/**
 * Copies the upstream event stream to the client without buffering. Headers go out only with
 * the first upstream chunk, so an upstream that fails before it still gets a JSON error.
 */
async function pipeStream(upstream: Response, res: ServerResponse, signal: AbortSignal, watchdog: UpstreamWatchdog): Promise<void> {
  const reader = upstream.body?.getReader();
  if (!reader) {
    sendError(res, 'openai', 502, 'Upstream sent no body');
    return;
  }
  try {
    let first = true;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      watchdog.touch();
      if (first) {
        res.writeHead(200, SSE_HEADERS);
        first = false;
      }
      res.write(value);
    }
    if (first) sendError(res, 'openai', 502, 'Upstream closed the stream without data');
    else res.end();
  } catch (err) {
    if (!watchdog.timedOut && isAbort(err, signal)) return;
    // A passthrough stream has no error frame of its own: after the headers, cutting it is the signal.
    if (res.headersSent) res.destroy();
    else if (watchdog.timedOut) sendError(res, 'openai', 504, `Upstream sent no data for ${watchdog.ms} ms`);
    else sendError(res, 'openai', 502, `Upstream stream failed: ${(err as Error).message}`);
  } finally {
    reader.releaseLock();
  }
}
