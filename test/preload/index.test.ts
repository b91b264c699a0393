import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../../main/app/ipc-rules.js';

const file = path.resolve(__dirname, '../../preload/index.cts');

/** Compiles the preload with its own tsconfig, as `npm run build:main` does. */
function compilePreload(): string {
  const configPath = path.resolve(__dirname, '../../preload/tsconfig.json');
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, path.dirname(configPath));
  return ts.transpileModule(fs.readFileSync(file, 'utf8'), { compilerOptions: parsed.options, fileName: file }).outputText;
}

/**
 * Runs the compiled preload the way a sandboxed renderer does: a plain script whose `require`
 * knows only electron's renderer modules (here a recording fake). No exports, no module.
 */
function runSandboxed(code: string) {
  const exposed: Array<{ key: string; api: Record<string, (...args: unknown[]) => unknown> }> = [];
  const invoked: unknown[][] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, (...args: unknown[]) => unknown>) => exposed.push({ key, api }) },
    ipcRenderer: { invoke: (...args: unknown[]) => (invoked.push(args), Promise.resolve('ok')) },
  };
  const require = (name: string) => {
    if (name !== 'electron') throw new Error(`module not found: ${name}`);
    return electron;
  };
  vm.runInNewContext(code, { require, Object, String, Promise });
  return { exposed, invoked };
}

describe('preload/index.cts', () => {
  const code = compilePreload();

  it('compiles to a plain script: no exports bookkeeping a sandbox might lack', () => {
    const withoutComments = code.replace(/^\s*\/\/.*$/gm, '');
    expect(withoutComments).not.toMatch(/\bexports\b/);
    expect(withoutComments).not.toMatch(/\bmodule\b/);
  });

  it('exposes one frozen object with version and openExternal, over the two channels', async () => {
    const { exposed, invoked } = runSandboxed(code);
    expect(exposed.map((e) => e.key)).toEqual(['switchboard']);
    const api = exposed[0]!.api;
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api).sort()).toEqual(['openExternal', 'version']);
    await api.version!();
    await api.openExternal!({ toString: () => 'https://example.com/' });
    expect(invoked).toEqual([[IPC_CHANNELS.version], [IPC_CHANNELS.openExternal, 'https://example.com/']]);
  });
});
