import type { AgentLoader } from './agent.js';
import { readPiStyle } from './pi-style.js';

/** OpenClaw (agents-usage.md §15): session JSONL, archived `*.jsonl.deleted.<ts>` / `*.jsonl.reset.<ts>` too. */
export const openclaw: AgentLoader = {
  id: 'openclaw',
  name: 'OpenClaw',
  envVar: 'OPENCLAW_DIR',
  defaultDirs: ['.openclaw', '.clawdbot', '.moltbot', '.moldbot'],
  roots: (dir) => [dir],
  accepts: (file) => /\.jsonl(?:\.(?:deleted|reset)\.[^/\\]+)?$/.test(file),
  read: (file) => readPiStyle('openclaw', file, true),
};
