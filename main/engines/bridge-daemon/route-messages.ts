import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  anthropicRequestToOpenAI,
  createOpenAIToAnthropicSse,
  openAIResponseToAnthropic,
  type AnthropicRequest,
  type OpenAIResponse,
  type SseTranslator,
} from '../translate/index.js';
import { isAbort, prepareRequest, relayUpstreamError, type PreparedRequest } from './route-common.js';
import { SSE_HEADERS } from '../translate/index.js';
import type { BridgeContext } from './server.js';
import { postChatCompletion, upstreamTimeoutMs } from './upstream.js';
import { UpstreamWatchdog } from './upstream-watchdog.js';
import { sendError, sendJson } from './wire-errors.js';

/**
 * POST /v1/messages: Anthropic clients (Claude Code). The request is translated to the
 * upstream's OpenAI-style chat API and the answer back, streaming or not, by the shared
 * translator (engines/translate).
 */
export async function handleMessages(req: IncomingMessage, res: ServerResponse, ctx: BridgeContext): Promise<void> {
  const prepared = await prepareRequest(req, res, ctx, 'anthropic');
  if (!prepared) return;
  const { body, model, creds, signal } = prepared;
  const anthropic = body as unknown as AnthropicRequest;
  if (!Array.isArray(anthropic.messages)) {
    sendError(res, 'anthropic', 400, 'messages: an array is required');
    return;
  }
  const requestedModel = typeof anthropic.model === 'string' ? anthropic.model : model;
  const openai = anthropicRequestToOpenAI(anthropic, { model });
  const watchdog = new UpstreamWatchdog(signal, upstreamTimeoutMs(ctx.upstream));
  try {
    await answerMessages(res, ctx, { anthropic, openai, requestedModel, creds, signal }, watchdog);
  } finally {
    watchdog.done();
  }
}

interface MessagesCall {
  anthropic: AnthropicRequest;
  openai: unknown;
  requestedModel: string;
  creds: PreparedRequest['creds'];
  signal: AbortSignal;
}

async function answerMessages(res: ServerResponse, ctx: BridgeContext, call: MessagesCall, watchdog: UpstreamWatchdog): Promise<void> {
  const { anthropic, openai, requestedModel, creds, signal } = call;
  let upstream: Response;
  try {
    upstream = await postChatCompletion(ctx.upstream, creds, openai, watchdog.signal);
  } catch (err) {
    if (watchdog.timedOut) sendError(res, 'anthropic', 504, `Upstream sent no response within ${watchdog.ms} ms`);
    else if (!isAbort(err, signal)) sendError(res, 'anthropic', 502, `Upstream unreachable: ${(err as Error).message}`);
    return;
  }
  watchdog.touch();
  if (!upstream.ok) {
    await relayUpstreamError(res, upstream, 'anthropic');
    return;
  }
  if (anthropic.stream !== true) {
    const text = await upstream.text().catch(() => null);
    if (text === null) {
      if (watchdog.timedOut) sendError(res, 'anthropic', 504, `Upstream body stalled for ${watchdog.ms} ms`);
      return; // else aborted by the client
    }
    let parsed: OpenAIResponse;
    try {
      parsed = JSON.parse(text) as OpenAIResponse;
    } catch {
      sendError(res, 'anthropic', 502, 'Upstream answered with a body that is not JSON');
      return;
    }
    sendJson(res, 200, openAIResponseToAnthropic(parsed, { model: requestedModel }));
    return;
  }
  await translateStream(upstream, res, signal, createOpenAIToAnthropicSse({ model: requestedModel }), watchdog);
}

/**
 * Upstream OpenAI SSE → Anthropic SSE as chunks arrive. Headers are written with the first
 * translated event, so a stream that dies before any data still gets a JSON error.
 */
async function translateStream(upstream: Response, res: ServerResponse, signal: AbortSignal, sse: SseTranslator, watchdog: UpstreamWatchdog): Promise<void> {
  const reader = upstream.body?.getReader();
  if (!reader) {
    sendError(res, 'anthropic', 502, 'Upstream sent no body');
    return;
  }
  const write = (text: string) => {
    if (!text) return;
    if (!res.headersSent) res.writeHead(200, SSE_HEADERS);
    res.write(text);
  };
  const decoder = new TextDecoder();
  try {
    while (!sse.done) {
      const { done, value } = await reader.read();
      if (done) break;
      watchdog.touch();
      write(sse.feed(decoder.decode(value, { stream: true })));
    }
    write(sse.end());
    res.end();
  } catch (err) {
    if (!watchdog.timedOut && isAbort(err, signal)) return;
    const [status, message] = watchdog.timedOut ? [504, `Upstream sent no data for ${watchdog.ms} ms`] : [502, `Upstream stream failed: ${(err as Error).message}`];
    if (!res.headersSent) sendError(res, 'anthropic', status, message);
    else {
      write(sse.fail(status, message));
      res.end();
    }
  } finally {
    if (sse.done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
