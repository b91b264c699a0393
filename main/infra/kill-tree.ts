import treeKill from 'tree-kill';

export type KillTree = (pid: number, signal: NodeJS.Signals) => Promise<void>;

/** Signals a process and all its descendants. A process already gone is not an error. */
export const killTree: KillTree = (pid, signal) =>
  new Promise((resolve) => {
    treeKill(pid, signal, () => resolve());
  });
