// npm run bench:soak — 200 start/stop cycles of the proxy and 200 of the bridge daemon through the
// management API under background load on cached reads (issue 9). SOAK_CYCLES changes the count.
// Exits 1 when a cycle failed, a child was left, or descriptors/RSS grew past the bounds.
import { leftovers, LOAD_ROUTES, percentile, runSoak } from './soak-run.js';
import { printTable } from './lib.js';

const cycles = Number(process.env.SOAK_CYCLES ?? 200);
/** Small bounds: the server's own sockets and buffers come and go, a leak grows with the cycles. */
const FD_BOUND = 10;
const RSS_BOUND_MIB = 48;

const r = await runSoak({ cycles, loadConnections: 10, log: (line) => console.log(line) });
const fdGrowth = r.after.fds - r.before.fds;
const rssGrowthMiB = (r.after.rssKiB - r.before.rssKiB) / 1024;
const left = leftovers(r.after);
const checks = [
  { check: 'proxy cycles ok', value: `${r.proxy.ok}/${cycles}`, bound: `${cycles}/${cycles}`, pass: r.proxy.ok === cycles },
  { check: 'bridge cycles ok', value: `${r.bridge.ok}/${cycles}`, bound: `${cycles}/${cycles}`, pass: r.bridge.ok === cycles },
  { check: 'children of the server', value: `${r.before.children.length} -> ${r.after.children.length}`, bound: 'no proxy/bridge/zombie', pass: left.length === 0 },
  { check: 'open fds (/proc/pid/fd)', value: `${r.before.fds} -> ${r.after.fds} (${fdGrowth >= 0 ? '+' : ''}${fdGrowth})`, bound: `+${FD_BOUND}`, pass: fdGrowth <= FD_BOUND },
  {
    check: 'RSS',
    value: `${(r.before.rssKiB / 1024).toFixed(1)} -> ${(r.after.rssKiB / 1024).toFixed(1)} MiB (${rssGrowthMiB >= 0 ? '+' : ''}${rssGrowthMiB.toFixed(1)})`,
    bound: `+${RSS_BOUND_MIB} MiB`,
    pass: rssGrowthMiB <= RSS_BOUND_MIB,
  },
  { check: 'background load errors', value: `${r.load.errors + r.load.non2xx} of ${r.load.requests}`, bound: '0', pass: r.load.errors + r.load.non2xx === 0 },
];

console.log(`\nserver pid ${r.serverPid}; ${cycles} cycles each (after ${r.warmUpCycles} warm-up cycles each), both loops at once, in ${(r.wallMs / 1000).toFixed(1)} s\n`);
printTable(
  (['proxy', 'bridge'] as const).map((name) => {
    const s = r[name];
    return {
      child: name,
      cycles: s.startMs.length,
      ok: s.ok,
      'start p50 ms': Math.round(percentile(s.startMs, 50)),
      'start p99 ms': Math.round(percentile(s.startMs, 99)),
      'stop p50 ms': Math.round(percentile(s.stopMs, 50)),
      'stop p99 ms': Math.round(percentile(s.stopMs, 99)),
    };
  }),
);
console.log('');
printTable([{ 'background load': `GET ${LOAD_ROUTES.join(', ')} (10 conn each)`, requests: r.load.requests, errors: r.load.errors, non2xx: r.load.non2xx, 'p50 ms': r.load.p50, 'p99 ms': r.load.p99 }]);
console.log('');
printTable(checks.map((c) => ({ check: c.check, value: c.value, bound: c.bound, result: c.pass ? 'ok' : 'FAIL' })));
for (const f of [...r.proxy.failed, ...r.bridge.failed].slice(0, 10)) console.log(`failed cycle: ${f}`);
for (const p of left) console.log(`left behind: pid ${p.pid} ${p.state} ${p.cmdline}`);
if (checks.some((c) => !c.pass)) process.exit(1);
