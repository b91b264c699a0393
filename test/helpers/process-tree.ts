import fs from 'node:fs';

/** One process under a root, from /proc (Linux): enough to tell our children apart. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  comm: string;
  /** argv joined with spaces ('' for a zombie or a process gone meanwhile). */
  cmdline: string;
  /** 'Z' for a zombie (exited, not reaped). */
  state: string;
}

function readEntry(pid: number): ProcessEntry | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may itself hold spaces or parentheses: split after the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const [state, ppid] = stat.slice(close + 2).split(' ');
    let cmdline = '';
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      // gone between the two reads
    }
    return { pid, ppid: Number(ppid), comm, cmdline, state: state ?? '?' };
  } catch {
    return null;
  }
}

/** Every live process (zombies included) whose ancestry leads to `root`, root excluded. */
export function descendantsOf(root: number): ProcessEntry[] {
  const all: ProcessEntry[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readEntry(Number(name));
    if (entry) all.push(entry);
  }
  const byParent = new Map<number, ProcessEntry[]>();
  for (const e of all) byParent.set(e.ppid, [...(byParent.get(e.ppid) ?? []), e]);
  const out: ProcessEntry[] = [];
  const visit = (pid: number) => {
    for (const child of byParent.get(pid) ?? []) {
      out.push(child);
      visit(child.pid);
    }
  };
  visit(root);
  return out;
}

/** Open file descriptors of a process (Linux /proc/<pid>/fd). */
export function openFdCount(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

/** Resident set size of a process in KiB (VmRSS from /proc/<pid>/status). */
export function rssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : NaN;
}

/** Supervised children of ours still around: the proxy engine and the bridge daemon by entry name. */
export function supervisedChildren(root: number): ProcessEntry[] {
  return descendantsOf(root).filter((p) => /proxy-engine\/main|bridge-daemon\/main|fake-server\.mjs/.test(p.cmdline) || p.state === 'Z');
}
