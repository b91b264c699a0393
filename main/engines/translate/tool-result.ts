import type { AnthropicDocumentBlock, AnthropicImageBlock, AnthropicToolResultBlock } from './anthropic-types.js';

/**
 * A tool_result's text, and its images and documents mapped by `media` (they cannot ride on a tool
 * message in OpenAI's formats, so each mapper moves them into the next user message). A failed
 * tool run keeps its failure visible to the model, which neither OpenAI format has a flag for.
 */
export function splitToolResult<M>(block: AnthropicToolResultBlock, media: (item: AnthropicImageBlock | AnthropicDocumentBlock) => M): { text: string; media: M[] } {
  const mapped: M[] = [];
  let text = '';
  if (typeof block.content === 'string') text = block.content;
  else if (block.content) {
    const texts: string[] = [];
    for (const item of block.content) {
      if (item.type === 'text') texts.push(item.text);
      else mapped.push(media(item));
    }
    text = texts.join('\n');
  }
  return { text: block.is_error ? `Error: ${text}` : text, media: mapped };
}
