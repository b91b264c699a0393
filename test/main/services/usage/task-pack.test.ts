import { describe, expect, it } from 'vitest';
import { packTasks, unpackTasks } from '../../../../main/services/usage/task-pack.js';

describe('a batch of tasks on its way to a scan worker', () => {
  it('arrives as the same tasks through a structured clone, each agent and flags pair sent once', () => {
    const tasks = [
      { path: '/p/a.jsonl', start: 0 },
      { path: '/o/msg_1.json', start: 0, agent: 'opencode', flags: '/o\u0000/o2' },
      { path: '/p/b.jsonl', start: 123456789012 },
      { path: '/o/msg_2.json', start: 0, agent: 'opencode', flags: '/o\u0000/o2' },
      { path: '/o2/opencode.db', start: 0, agent: 'opencode', flags: '/o2\u0000/o' },
      { path: '/c/rollout.jsonl', start: 0, agent: 'codex' },
      { path: '/c/other.jsonl', start: 0, agent: 'codex', flags: '' },
    ];
    const packed = structuredClone(packTasks(tasks));
    expect(unpackTasks(packed)).toStrictEqual(tasks);
    expect(packed.kinds).toHaveLength(4);
  });
});
