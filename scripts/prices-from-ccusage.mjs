#!/usr/bin/env node
// Reads the rates ccusage (the pinned devDependency, 20.0.24) applies with --offline, i.e. its
// embedded LiteLLM price table, for the models named: how resources/prices.json is checked and
// grown (docs/usage.md, "Every agent"). No network: ccusage --offline prices from its own copy.
//
//   node scripts/prices-from-ccusage.mjs gpt-5.4 gemini-2.5-flash kimi-k2.5 …
//   node scripts/prices-from-ccusage.mjs --write moonshot kimi-k2.5 kimi-k2.6 …
//
// With `--write VENDOR` the rates are also written into resources/prices.json: a new entry gets
// `vendor: VENDOR`, an existing one keeps its vendor, aliases, note and fast multiplier and gets
// the new rates (`cacheWrite1h` = 2 × input, as for every non-Anthropic entry). A model ccusage
// does not price, or prices with a long-context tier, is reported and not written.
//
// For each model it writes one OpenCode message per token kind (100 000 tokens each, on its own
// day) and prints USD per million tokens as ccusage costs them: input, output, cache write, cache
// read, and the input rate above 272k and 200k (a long-context tier shows as a different rate).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ccusage = path.join(root, 'node_modules', '.bin', 'ccusage');
const args = process.argv.slice(2);
const writeAt = args.indexOf('--write');
const vendor = writeAt === -1 ? null : args[writeAt + 1];
const models = writeAt === -1 ? args : args.filter((_, i) => i !== writeAt && i !== writeAt + 1);
if (models.length === 0 || (writeAt !== -1 && !vendor)) {
  console.error('usage: node scripts/prices-from-ccusage.mjs [--write VENDOR] MODEL…');
  process.exit(2);
}

const N = 100_000;
const kinds = [
  ['input', { input: N }],
  ['output', { output: N }],
  ['cacheWrite', { cache: { write: N } }],
  ['cacheRead', { cache: { read: N } }],
  ['input>272k', { input: 300_000 }],
  ['input>200k', { input: 250_000 }],
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-prices-'));
try {
  const day0 = Date.UTC(2026, 0, 1);
  models.forEach((model, m) => {
    kinds.forEach(([, tokens], k) => {
      const id = `msg_${m}_${k}`;
      const msg = {
        id,
        sessionID: `ses_${m}`,
        role: 'assistant',
        modelID: model,
        providerID: model.split('/')[0] === model ? 'any' : model.split('/')[0],
        cost: 0,
        time: { created: day0 + (m * kinds.length + k) * 86_400_000 },
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 }, ...tokens, cache: { read: 0, write: 0, ...(tokens.cache ?? {}) } },
      };
      const file = path.join(dir, 'storage', 'message', msg.sessionID, `${id}.json`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(msg));
    });
  });
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  const out = execFileSync(ccusage, ['opencode', 'daily', '--json', '--offline', '--timezone', 'UTC'], { env: { PATH: process.env.PATH, HOME: home, OPENCODE_DATA_DIR: dir, TZ: 'UTC' } });
  const byDate = new Map(JSON.parse(out).daily.map((d) => [d.date, d.totalCost]));
  const rows = models.map((model, m) => {
    const row = { model };
    kinds.forEach(([name, tokens], k) => {
      const date = new Date(day0 + (m * kinds.length + k) * 86_400_000).toISOString().slice(0, 10);
      const count = tokens.input ?? tokens.output ?? tokens.cache.write ?? tokens.cache.read;
      row[name] = Number((((byDate.get(date) ?? 0) / count) * 1e6).toPrecision(12));
    });
    return row;
  });
  console.table(rows);
  if (vendor) writeRates(rows);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Merges plain (no long-context tier) rates into resources/prices.json. Only the written entries'
 * text changes (the rest of the file keeps its hand layout, so parallel edits merge cleanly).
 */
function writeRates(rows) {
  const file = path.join(root, 'resources', 'prices.json');
  let text = fs.readFileSync(file, 'utf8');
  const table = JSON.parse(text);
  for (const row of rows) {
    const name = row.model.slice(row.model.lastIndexOf('/') + 1);
    if (row.input === 0 && row.output === 0) {
      console.error(`not written: ${row.model} (ccusage prices it at 0: unknown to its table)`);
      continue;
    }
    if (row['input>272k'] !== row.input || row['input>200k'] !== row.input) {
      console.error(`not written: ${row.model} (a long-context tier; write it by hand from the figures above)`);
      continue;
    }
    const old = table.models[name];
    const entry = { ...(old ?? { vendor }), input: row.input, output: row.output, cacheWrite5m: row.cacheWrite, cacheWrite1h: Number((2 * row.input).toPrecision(12)), cacheRead: row.cacheRead };
    const block = `    ${JSON.stringify(name)}: ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')}`;
    if (old === undefined) {
      const end = text.lastIndexOf('\n    }\n  }');
      if (end === -1) throw new Error('prices.json: cannot find the end of models');
      text = `${text.slice(0, end + 6)},\n${block}${text.slice(end + 6)}`;
    } else {
      const start = text.indexOf(`\n    ${JSON.stringify(name)}: {`);
      const stop = text.indexOf('\n    }', start);
      if (start === -1 || stop === -1) throw new Error(`prices.json: cannot find ${name}`);
      text = `${text.slice(0, start + 1)}${block}${text.slice(stop + 6)}`;
    }
    console.error(`written: ${name}`);
  }
  JSON.parse(text); // still a table
  fs.writeFileSync(file, text);
}
