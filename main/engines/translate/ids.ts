import { randomBytes } from 'node:crypto';

/**
 * Ids are derived from the upstream's id so a translated answer is deterministic (golden tests,
 * log correlation): `chatcmpl-abc` ⇄ `msg_abc`.
 */
export function anthropicMessageId(openAIId: string | undefined): string {
  if (!openAIId) return `msg_${randomBytes(12).toString('hex')}`;
  return openAIId.startsWith('msg_') ? openAIId : `msg_${openAIId.replace(/^chatcmpl-/, '')}`;
}

export function openAICompletionId(anthropicId: string | undefined): string {
  if (!anthropicId) return `chatcmpl-${randomBytes(12).toString('hex')}`;
  return anthropicId.startsWith('chatcmpl-') ? anthropicId : `chatcmpl-${anthropicId.replace(/^msg_/, '')}`;
}

/**
 * Anthropic accepts tool ids matching ^[a-zA-Z0-9_-]+$ only; some OpenAI-compatible servers use
 * other characters or omit the id. The same input always gives the same id, so a tool_result sent
 * back in the next request still matches its tool_use.
 */
export function anthropicToolId(id: string | undefined, fallback: string): string {
  const cleaned = (id ?? '').replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : fallback;
}
