// CPU time of another process (the proxy under test), read from /proc: what it spends per request
// does not depend on how busy the machine is the way requests per second do.
import fs from 'node:fs';

/** User + system CPU time of `pid` in µs, or undefined where /proc is not there (not Linux). */
export function processCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the `(command)`, which may hold spaces; utime and stime are the 12th and 13th,
  // in clock ticks of 1/100 s (USER_HZ is 100 on every Linux architecture Node runs on).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
