import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { externalUrlToOpen, IPC_CHANNELS } from '../../../main/app/ipc-rules.js';

const origin = 'http://127.0.0.1:3000';
const preload = fs.readFileSync(path.resolve(__dirname, '../../../preload/index.cts'), 'utf8');

describe('externalUrlToOpen', () => {
  it('opens a checked https link asked for by our page', () => {
    expect(externalUrlToOpen('https://example.com/docs', 'http://127.0.0.1:3000/#/proxy', origin)).toBe('https://example.com/docs');
  });

  it('refuses other schemes and bad values', () => {
    for (const url of ['http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', '', null, 7]) {
      expect(externalUrlToOpen(url, `${origin}/`, origin)).toBeUndefined();
    }
  });

  it('refuses a request from any other page', () => {
    expect(externalUrlToOpen('https://example.com/', 'https://evil.example/', origin)).toBeUndefined();
    expect(externalUrlToOpen('https://example.com/', undefined, origin)).toBeUndefined();
  });
});

describe('preload/index.cts', () => {
  it('invokes exactly the two channels main answers', () => {
    const invoked = [...preload.matchAll(/ipcRenderer\.invoke\(\s*'([^']+)'/g)].map((m) => m[1]).sort();
    expect(invoked).toEqual(Object.values(IPC_CHANNELS).sort());
    expect(preload).not.toMatch(/ipcRenderer\.(send|on|once|sendSync|postMessage)\b/);
  });

  it('exposes one frozen object through contextBridge and imports nothing but electron', () => {
    expect(preload).toMatch(/Object\.freeze\(/);
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    const imports = [...preload.matchAll(/(?:from\s+|require\()\s*'([^']+)'/g)].map((m) => m[1]);
    expect(imports).toEqual(['electron']);
  });
});
