import { anthropicToolsToResponses, clientToolNames, type AnthropicTool } from '../../translate/index.js';
import type { ClientBody, ToolsMapping } from './client-body.js';
import { ToolsMemo } from './tools-memo.js';

/**
 * Claude Code's tool definitions for a Responses upstream, mapped once per distinct tools bytes
 * (see ToolsMemo), and beside them the client's tool names, which the answer's tool calls are
 * mapped back by. Both are kept by the same bytes.
 */
export class ResponsesTools {
  readonly mapping: ToolsMapping = {
    memo: new ToolsMemo(),
    map: (tools) => {
      // A long name is a marker in the skeleton: mapped here it would escape shortening.
      if (Array.isArray(tools) && tools.some((t) => typeof (t as { name?: unknown } | null)?.name === 'string' && (t as { name: string }).name.includes('\u0000'))) {
        throw new Error('a tool name hides behind a marker');
      }
      return anthropicToolsToResponses(tools as AnthropicTool[]);
    },
  };
  private readonly names = new ToolsMemo();

  /** The client's tool names in `request`'s tools, undefined when they cannot be read. */
  clientNames(request: ClientBody): string[] | undefined {
    const span = request.facts.toolsSpan;
    if (!span) return undefined;
    const [start, end] = span;
    const kept = this.names.get(request.raw, start, end);
    if (kept) return JSON.parse(kept.toString('utf8')) as string[];
    let names: string[];
    try {
      const tools = JSON.parse(request.raw.toString('utf8', start, end)) as unknown;
      if (!Array.isArray(tools)) return undefined;
      names = clientToolNames(tools as AnthropicTool[]);
    } catch {
      return undefined;
    }
    this.names.set(request.raw, start, end, Buffer.from(JSON.stringify(names)));
    return names;
  }
}
