import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Compiles main/ and the benchmark child to plain JS under `out/dist` with its own package.json,
 * the way the packaged app runs: timings then include no TypeScript loader, and scan workers
 * start from compiled files (from sources each worker would first load tsx). dist/ is untouched.
 */
export function buildForBench(root: string, out: string): void {
  fs.rmSync(out, { recursive: true, force: true });
  const sources = [...walk(path.join(root, 'main')), path.join(root, 'bench', 'usage-child.ts')];
  for (const file of sources) {
    const rel = path.relative(root, file).replace(/\.ts$/, '.js');
    const target = path.join(out, 'dist', rel);
    const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
      fileName: file,
    });
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, outputText);
  }
  fs.copyFileSync(path.join(root, 'package.json'), path.join(out, 'package.json'));
  fs.mkdirSync(path.join(out, 'resources'), { recursive: true });
  fs.copyFileSync(path.join(root, 'resources', 'prices.json'), path.join(out, 'resources', 'prices.json'));
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'app' ? [] : walk(full); // app/ is Electron-only
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}
