import { createHash } from 'node:crypto';

/** The Responses API refuses function names and call ids longer than 64 characters. */
export const NAME_LIMIT = 64;

/**
 * Claude Code's MCP tools are named `mcp__<server>__<tool>` and can pass 64 characters. A long name
 * is shortened deterministically (so the same tool gets the same name on every request of a
 * conversation): `mcp__` names keep their last segment, anything else its head, plus a hash of the
 * whole name. The map turns the model's calls back into the client's names.
 */
export class ToolNames {
  private readonly toUpstream = new Map<string, string>();
  private readonly toClient = new Map<string, string>();

  constructor(names: Iterable<string> = []) {
    for (const name of names) this.upstream(name);
  }

  /** The name sent upstream for a client tool name. */
  upstream(name: string): string {
    const known = this.toUpstream.get(name);
    if (known !== undefined) return known;
    const short = shortenName(name);
    this.toUpstream.set(name, short);
    this.toClient.set(short, name);
    return short;
  }

  /** The client's name for a name the model used; unknown names come back as they are. */
  client(name: string): string {
    return this.toClient.get(name) ?? name;
  }
}

export function shortenName(name: string): string {
  if (name.length <= NAME_LIMIT) return name;
  const hash = digest(name, 8);
  const base = name.startsWith('mcp__') ? `mcp__${name.slice(name.lastIndexOf('__') + 2)}` : name;
  return `${base.slice(0, NAME_LIMIT - hash.length - 1)}_${hash}`;
}

/** A call id over the limit keeps its head and a hash of the whole, so a tool result still matches its call. */
export function shortenCallId(id: string): string {
  if (id.length <= NAME_LIMIT) return id;
  const hash = digest(id, 12);
  return `${id.slice(0, NAME_LIMIT - hash.length - 1)}_${hash}`;
}

function digest(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}
