import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  build: {
    outDir: path.join(here, '..', 'dist', 'renderer'),
    emptyOutDir: true,
    sourcemap: true,
    // The CSP forbids inline script; keep every module an external file.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
