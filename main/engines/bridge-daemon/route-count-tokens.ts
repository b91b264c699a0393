import type { IncomingMessage, ServerResponse } from 'node:http';
import { estimateInputTokens, type AnthropicRequest } from '../translate/index.js';
import { readBody } from './request-body.js';
import { refuseTooLarge } from './route-common.js';
import type { BridgeContext } from './server.js';
import { sendError, sendJson } from './wire-errors.js';

/**
 * POST /v1/messages/count_tokens: Claude Code asks before it compacts. The editor upstream has no
 * counting endpoint, so the daemon answers with the translator's estimate (characters / 4 plus
 * fixed costs per image and message; see docs/proxy-engine.md), without credentials or a call out.
 */
export async function handleCountTokens(req: IncomingMessage, res: ServerResponse, ctx: BridgeContext): Promise<void> {
  const read = await readBody(req, ctx.maxBodyBytes);
  if (!read.ok) {
    if (read.reason === 'too-large') refuseTooLarge(req, res, ctx, 'anthropic', read.drained);
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(read.body.toString('utf8'));
  } catch {
    return sendError(res, 'anthropic', 400, 'Request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendError(res, 'anthropic', 400, 'Request body must be a JSON object');
  const request = body as Partial<AnthropicRequest>;
  if (!Array.isArray(request.messages)) return sendError(res, 'anthropic', 400, 'messages: an array is required');
  try {
    sendJson(res, 200, { input_tokens: estimateInputTokens(request as AnthropicRequest) });
  } catch {
    // A block of an unexpected shape (text that is not a string, say) is the client's mistake.
    sendError(res, 'anthropic', 400, 'messages: a content block has an unexpected shape');
  }
}
