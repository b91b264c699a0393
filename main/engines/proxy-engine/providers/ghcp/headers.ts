import { randomUUID } from 'node:crypto';

/**
 * The headers Copilot's API expects from its VS Code chat client (reference/accounts.md §5, as
 * CLIProxyAPI sends them in August 2026). `X-Initiator: agent` marks a request that continues a
 * tool loop: Copilot once billed premium requests by it, and still reads it.
 */
const USER_AGENT = 'GitHubCopilotChat/0.35.0';
const EDITOR_VERSION = 'vscode/1.107.0';
const PLUGIN_VERSION = 'copilot-chat/0.35.0';

export function copilotHeaders(copilotToken: string, body: Record<string, unknown>, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    authorization: `Bearer ${copilotToken}`,
    'user-agent': USER_AGENT,
    'editor-version': EDITOR_VERSION,
    'editor-plugin-version': PLUGIN_VERSION,
    'openai-intent': 'conversation-edits',
    'copilot-integration-id': 'vscode-chat',
    'x-github-api-version': '2025-04-01',
    'x-request-id': randomUUID(),
    'x-initiator': continuesToolLoop(body) ? 'agent' : 'user',
  };
  if (hasImage(body)) headers['copilot-vision-request'] = 'true';
  return headers;
}

/** The last message is the assistant's or a tool's, or the last user turn carries a tool result. */
export function continuesToolLoop(body: Record<string, unknown>): boolean {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: unknown; content?: unknown }>) : [];
  const last = messages.at(-1);
  if (!last) return false;
  if (last.role === 'assistant' || last.role === 'tool') return true;
  return Array.isArray(last.content) && last.content.some((b: { type?: unknown } | null) => b?.type === 'tool_result');
}

function hasImage(body: Record<string, unknown>): boolean {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  return messages.some((m) => Array.isArray(m.content) && m.content.some((b: { type?: unknown } | null) => b?.type === 'image' || b?.type === 'image_url'));
}
