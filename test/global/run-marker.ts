import crypto from 'node:crypto';
import fs from 'node:fs';

/**
 * "Nothing left behind", checked for the whole run: the global setup puts a marker unique to the
 * run into process.env, which every process the run starts inherits (test workers, `serve`
 * children, proxy engines, bridge daemons, esbuild services), detached or re-parented or not. The
 * global teardown then finds every process still carrying it.
 */
export const RUN_MARKER = 'SWITCHBOARD_TEST_RUN';

export interface Survivor {
  pid: number;
  ppid: number;
  cmdline: string;
}

/** Sets a fresh marker for this run (replacing one inherited from an outer run) and returns it. */
export function markRun(): string {
  const marker = `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  process.env[RUN_MARKER] = marker;
  return marker;
}

function stat(pid: number): { ppid: number; state: string } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state: state ?? '?' };
  } catch {
    return null;
  }
}

/** This process and its ancestors: they carry the marker and are meant to be alive. */
function ancestry(): Set<number> {
  const out = new Set<number>();
  for (let pid = process.pid; pid > 1 && !out.has(pid); ) {
    out.add(pid);
    pid = stat(pid)?.ppid ?? 0;
  }
  return out;
}

/**
 * The runners' own workers: vitest may still be closing its forks when the teardown runs. They
 * are the runner's to end; what they started is not, and is still reported.
 */
const RUNNER_WORKER = /node_modules\/(vitest\/dist\/workers\/|playwright\/lib\/[a-z]+\/[A-Za-z]+ProcessEntry\.js)/;

/** Live processes (zombies aside) carrying `marker`, other than this process, its ancestors and the runners' workers. */
export function survivors(marker: string): Survivor[] {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`${RUN_MARKER}=${marker}\0`);
  const mine = ancestry();
  const out: Survivor[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || mine.has(Number(name))) continue;
    const pid = Number(name);
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`).includes(needle)) continue;
      const s = stat(pid);
      if (!s || s.state === 'Z') continue;
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (RUNNER_WORKER.test(cmdline)) continue;
      out.push({ pid, ppid: s.ppid, cmdline });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits up to `graceMs` for the run's processes to finish exiting (a SIGTERM just sent), then
 * kills what is left so the machine is clean either way, and throws naming each one.
 */
export async function assertNothingLeft(marker: string, runner: string, graceMs = 10_000): Promise<void> {
  const deadline = Date.now() + graceMs;
  let left = survivors(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(250);
    left = survivors(marker);
  }
  if (left.length === 0) return;
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // exited just now
    }
  }
  const lines = left.map((p) => `  pid ${p.pid} (parent ${p.ppid}): ${p.cmdline.slice(0, 300)}`);
  throw new Error(`${runner} left ${left.length} process(es) running after the run (now killed):\n${lines.join('\n')}`);
}
