// CPU time of another process (the proxy or server under test), read from /proc: what it spends
// per request does not depend on how busy the machine is the way requests per second do.
import fs from 'node:fs';

/** User + system CPU time of `pid` (all its threads) in µs, or undefined where /proc is not there (not Linux). */
export function processCpuMicros(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : cpuMicros(`/proc/${pid}/stat`);
}

/** The same for the main thread of `pid` alone (its event loop, without the libuv pool or GC helper threads). */
export function mainThreadCpuMicros(pid: number): number | undefined {
  return cpuMicros(`/proc/${pid}/task/${pid}/stat`);
}

function cpuMicros(statFile: string): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(statFile, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the `(command)`, which may hold spaces; utime and stime are the 12th and 13th,
  // in clock ticks of 1/100 s (USER_HZ is 100 on every Linux architecture Node runs on).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
