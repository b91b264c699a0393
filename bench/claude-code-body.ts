// A request shaped like the ones Claude Code sends (system prompt blocks with cache_control, tool
// definitions, a conversation with tool calls and results, metadata.user_id, thinking, stream),
// padded to about `bytes` with realistic text, so the proxies parse and forward what they would.
export function claudeCodeBody(model: string, bytes = 20 * 1024, stream = true): string {
  const tools = ['Bash', 'Read', 'Edit', 'Grep', 'Glob', 'Write'].map((name) => ({
    name,
    description: `${name}: ${'Performs the operation on the user\u2019s workspace and returns its output. '.repeat(4)}`,
    input_schema: { type: 'object', properties: { command: { type: 'string', description: 'What to run' }, path: { type: 'string' } }, required: ['command'] },
  }));
  const body = {
    model,
    max_tokens: 32000,
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
      { type: 'text', text: 'You are an interactive CLI tool that helps users with software engineering tasks. ', cache_control: { type: 'ephemeral' } },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Fix the failing test in src/parser.ts' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Read', input: { command: 'read', path: 'src/parser.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '' }] },
      { role: 'user', content: [{ type: 'text', text: 'Go on.', cache_control: { type: 'ephemeral' } }] },
    ],
    tools,
    metadata: { user_id: 'user_0123456789abcdef_account_01234567-89ab-cdef-0123-456789abcdef_session_01234567-89ab-cdef-0123-456789abcdef' },
    thinking: { type: 'enabled', budget_tokens: 4000 },
    stream,
  };
  const line = 'export function parse(input: string): Node[] { return tokenize(input).map(toNode); } // "quoted" \\ text\n';
  const result = body.messages[2]!.content[0] as { content: string };
  const base = JSON.stringify(body).length;
  result.content = line.repeat(Math.max(0, Math.ceil((bytes - base) / (line.length + 4))));
  return JSON.stringify(body);
}
