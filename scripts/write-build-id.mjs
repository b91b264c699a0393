// Part of `npm run build`: writes dist/main/build-id.txt, a new id per build. Answers the app keeps
// across runs (the usage CLI's kept answers, the server's saved answers) are keyed on it beside
// the version, so a rebuilt checkout with the same version number (a `git pull`, a developer's
// change to the aggregation code) never serves answers computed by the code it replaced.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'dist', 'main', 'build-id.txt');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${new Date().toISOString()}.${randomBytes(6).toString('hex')}\n`);
