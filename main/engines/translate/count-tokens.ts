import type { AnthropicContentBlock, AnthropicRequest } from './anthropic-types.js';

/** Anthropic's published rule of thumb for images: about (width × height) / 750 tokens, ~1 600 for a typical screenshot. */
const IMAGE_TOKENS = 1600;
/** English prose and code average close to 4 characters per token with Claude's tokenizer. */
const CHARS_PER_TOKEN = 4;

/**
 * An estimate for POST /v1/messages/count_tokens: characters / 4 over the system prompt, every
 * message, and the tool definitions, a fixed 1 600 per image or document and a few tokens of
 * framing per message. Not the vendor's tokenizer: good for budgeting, off by 10-20 % on real text.
 */
export function estimateInputTokens(req: Pick<AnthropicRequest, 'system' | 'messages' | 'tools'>): number {
  let chars = 0;
  let fixed = 0;
  if (typeof req.system === 'string') chars += req.system.length;
  else for (const block of req.system ?? []) chars += block.text.length;
  for (const message of req.messages ?? []) {
    fixed += 4;
    if (typeof message.content === 'string') chars += message.content.length;
    else for (const block of message.content) ({ chars, fixed } = addBlock(block, chars, fixed));
  }
  for (const tool of req.tools ?? []) chars += tool.name.length + (tool.description?.length ?? 0) + JSON.stringify(tool.input_schema ?? {}).length;
  return Math.max(1, Math.ceil(chars / CHARS_PER_TOKEN) + fixed);
}

function addBlock(block: AnthropicContentBlock, chars: number, fixed: number): { chars: number; fixed: number } {
  switch (block.type) {
    case 'text':
      return { chars: chars + block.text.length, fixed };
    case 'thinking':
      return { chars: chars + block.thinking.length, fixed };
    case 'tool_use':
      return { chars: chars + block.name.length + JSON.stringify(block.input ?? {}).length, fixed };
    case 'tool_result': {
      if (typeof block.content === 'string') return { chars: chars + block.content.length, fixed };
      let acc = { chars, fixed };
      for (const inner of block.content ?? []) acc = addBlock(inner, acc.chars, acc.fixed);
      return acc;
    }
    case 'image':
    case 'document':
      return { chars, fixed: fixed + IMAGE_TOKENS };
    default:
      return { chars, fixed };
  }
}
