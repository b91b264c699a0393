// Prints one "N passed, N failed" line per runner and a total, from the JSON reports CI keeps
// (vitest.config.ts and playwright.config.ts write them when CI is set).
import fs from 'node:fs';

function read(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const rows = [];
const vitest = read('test-results/vitest.json');
if (vitest) rows.push(['vitest', vitest.numPassedTests, vitest.numFailedTests, vitest.numPendingTests + vitest.numTodoTests]);
const e2e = read('test-results/e2e.json');
if (e2e) rows.push(['playwright', e2e.stats.expected + e2e.stats.flaky, e2e.stats.unexpected, e2e.stats.skipped]);

let passed = 0;
let failed = 0;
for (const [name, p, f, s] of rows) {
  console.log(`${name}: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`);
  passed += p;
  failed += f;
}
console.log(`total: ${passed} passed, ${failed} failed`);
