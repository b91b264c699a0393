/**
 * Whether the Anthropic → Responses mapper can work on a ClientBody skeleton (long strings swapped
 * for markers, see json-splice) and give what it gives on the parsed body. It can wherever it only
 * copies, joins or prefixes a string; it cannot where it reads one: the session in
 * `metadata.user_id` (the prompt cache key), a thinking block's signature (`gAAAA…` decides
 * whether it goes back), and tool names and call ids (shortened past 64 characters). A marker there
 * — or a client's own NUL, which markers start with — sends the request down the full parse.
 */
export function skeletonReadable(body: Record<string, unknown>): boolean {
  const metadata = body.metadata as { user_id?: unknown } | undefined;
  if (marked(metadata?.user_id)) return false;
  const choice = body.tool_choice as { name?: unknown } | undefined;
  if (marked(choice?.name)) return false;
  if (Array.isArray(body.tools) && body.tools.some((t) => marked((t as { name?: unknown } | null)?.name))) return false;
  if (!Array.isArray(body.messages)) return true;
  for (const message of body.messages as Array<{ content?: unknown } | null>) {
    const content = message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as Array<Record<string, unknown> | null>) {
      if (!block) continue;
      if (marked(block.signature) || marked(block.id) || marked(block.tool_use_id) || marked(block.name)) return false;
    }
  }
  return true;
}

function marked(value: unknown): boolean {
  return typeof value === 'string' && value.includes('\u0000');
}
