import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appBuild, appVersion } from '../../../main/infra/app-version.js';

const built = path.resolve('dist/main/infra/app-version.js');
const idFile = path.resolve('dist/main/build-id.txt');
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };

describe('appBuild', () => {
  it('from the sources: the version and "source"', () => {
    expect(appVersion()).toBe(pkg.version);
    expect(appBuild()).toBe(`${pkg.version}+source`);
  });

  // `npm test` builds first; a bare `vitest run` without dist/ skips this one.
  it.runIf(fs.existsSync(built))('from a build: the version and the id `npm run build` wrote beside the code', () => {
    const id = fs.readFileSync(idFile, 'utf8').trim();
    expect(id).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\.[0-9a-f]{12}$/);
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(pathToFileURL(built).href)}).then((m) => process.stdout.write(m.appBuild()))`], { encoding: 'utf8' });
    expect(out).toBe(`${pkg.version}+${id}`);
  });
});
