// Builds when dist/ is missing or older than a source file, so `npm start` works on a fresh clone.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const stamp = path.join(root, 'dist', 'renderer', 'index.html');

function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full));
    else latest = Math.max(latest, fs.statSync(full).mtimeMs);
  }
  return latest;
}

const sources = ['main', 'preload', 'renderer', 'resources'].map((d) => path.join(root, d)).filter(fs.existsSync);
const built = fs.existsSync(stamp) && fs.existsSync(path.join(root, 'dist', 'main', 'cli', 'index.js')) ? fs.statSync(stamp).mtimeMs : 0;
if (built === 0 || Math.max(...sources.map(newest)) > built) {
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
