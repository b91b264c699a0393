import path from 'node:path';
import type { AgentLoader } from './agent.js';
import { readPiStyle } from './pi-style.js';

/** pi-agent (agents-usage.md §10): session JSONL below `~/.pi/agent/sessions`. */
export const pi: AgentLoader = {
  id: 'pi',
  name: 'pi-agent',
  envVar: 'PI_AGENT_DIR',
  defaultDirs: [path.join('.pi', 'agent', 'sessions')],
  roots: (dir) => [dir],
  accepts: (file) => file.endsWith('.jsonl'),
  read: (file) => readPiStyle('pi', file, false),
};
