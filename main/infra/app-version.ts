import fs from 'node:fs';
import path from 'node:path';
import { appRoot } from './app-root.js';

let version: string | undefined;

export function appVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(appRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
