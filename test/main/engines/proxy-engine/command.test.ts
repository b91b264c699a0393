import { describe, expect, it } from 'vitest';
import { ENGINE_V8_FLAGS, engineCommand } from '../../../../main/engines/proxy-engine/command.js';

describe('engineCommand', () => {
  it('runs the engine entry with its V8 flags before the script and the config after it', () => {
    const { command, args } = engineCommand('/cfg/proxy/config.yaml');
    expect(command).toBe(process.execPath);
    expect(ENGINE_V8_FLAGS).toContain('--single-threaded-gc');
    expect(args.slice(0, ENGINE_V8_FLAGS.length)).toEqual([...ENGINE_V8_FLAGS]);
    const script = args.findIndex((a) => /proxy-engine[/\\]main\.(ts|js)$/.test(a));
    expect(script).toBeGreaterThan(ENGINE_V8_FLAGS.length - 1);
    expect(args.slice(script + 1)).toEqual(['--config', '/cfg/proxy/config.yaml']);
  });
});
