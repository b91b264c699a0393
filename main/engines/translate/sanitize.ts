import type { AnthropicRequest } from './anthropic-types.js';

/**
 * Thinking blocks only verify against the vendor that signed them. A conversation that went
 * through an OpenAI upstream carries unsigned thinking blocks (signature ''); sending those to an
 * Anthropic upstream fails with "Invalid signature in thinking block", the most common
 * cross-provider error. They are removed; signed blocks are left alone.
 */
export function stripUnsignedThinking(req: AnthropicRequest): AnthropicRequest {
  let changed = false;
  const messages = req.messages.map((message) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return message;
    const kept = message.content.filter((b) => !(b.type === 'thinking' && !b.signature));
    if (kept.length === message.content.length) return message;
    changed = true;
    return { ...message, content: kept.length > 0 ? kept : [{ type: 'text' as const, text: '' }] };
  });
  return changed ? { ...req, messages } : req;
}
