import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appRoot } from './app-root.js';

let version: string | undefined;

export function appVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(appRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

let build: string | undefined;

/**
 * `<version>+<id>`: the version and the id `npm run build` wrote beside the compiled code (dist/main/build-id.txt;
 * "source" when running from the TypeScript sources): what answers kept across runs are keyed on,
 * so a rebuild with an unchanged version number never reuses answers of the code it replaced.
 */
export function appBuild(): string {
  if (build === undefined) {
    let id = 'source';
    try {
      id = fs.readFileSync(fileURLToPath(new URL('../build-id.txt', import.meta.url)), 'utf8').trim() || id;
    } catch {
      // not built: running from sources
    }
    build = `${appVersion()}+${id}`;
  }
  return build;
}
