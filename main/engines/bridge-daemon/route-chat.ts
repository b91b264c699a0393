import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbort, prepareRequest, relayUpstreamError, SSE_HEADERS } from './route-common.js';
import type { BridgeContext } from './server.js';
import { postChatCompletion } from './upstream.js';
import { sendError, sendJson } from './wire-errors.js';

/** POST /v1/chat/completions: OpenAI clients; the upstream speaks the same format, so bodies pass through. */
export async function handleChatCompletions(req: IncomingMessage, res: ServerResponse, ctx: BridgeContext): Promise<void> {
  const prepared = await prepareRequest(req, res, ctx, 'openai');
  if (!prepared) return;
  const { body, model, creds, signal } = prepared;
  const stream = body.stream === true;
  let upstream: Response;
  try {
    upstream = await postChatCompletion(ctx.upstream, creds, { ...body, model }, signal);
  } catch (err) {
    if (!isAbort(err, signal)) sendError(res, 'openai', 502, `Upstream unreachable: ${(err as Error).message}`);
    return;
  }
  if (!upstream.ok) {
    await relayUpstreamError(res, upstream, 'openai');
    return;
  }
  if (!stream) {
    const text = await upstream.text().catch(() => null);
    if (text === null) return; // aborted by the client
    try {
      sendJson(res, 200, JSON.parse(text));
    } catch {
      sendError(res, 'openai', 502, 'Upstream answered with a body that is not JSON');
    }
    return;
  }
  await pipeStream(upstream, res, signal);
}

/**
 * Copies the upstream event stream to the client without buffering. Headers go out only with
 * the first upstream chunk, so an upstream that fails before it still gets a JSON error.
 */
async function pipeStream(upstream: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
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
      if (first) {
        res.writeHead(200, SSE_HEADERS);
        first = false;
      }
      res.write(value);
    }
    if (first) sendError(res, 'openai', 502, 'Upstream closed the stream without data');
    else res.end();
  } catch (err) {
    if (isAbort(err, signal)) return;
    if (!res.headersSent) sendError(res, 'openai', 502, `Upstream stream failed: ${(err as Error).message}`);
    else res.destroy();
  } finally {
    reader.releaseLock();
  }
}
