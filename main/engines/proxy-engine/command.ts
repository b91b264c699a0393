import { nodeEntry, type NodeCommand } from '../../infra/node-entry.js';

/**
 * V8 flags the engine runs with. `--single-threaded-gc`: the engine's heap is small and short-lived
 * (a request's buffers and strings), and on a laptop's few cores V8's parallel GC helpers only add
 * thread hand-offs. Measured on 2 cores under a Claude Code–shaped load, one GC thread cut the CPU
 * per passthrough request by about a tenth (docs/proxy-engine.md, "One GC thread").
 */
export const ENGINE_V8_FLAGS: readonly string[] = ['--single-threaded-gc'];

/** The command that runs the built-in engine on `configFile`: the supervisor's, the tests' and the bench's. */
export function engineCommand(configFile: string): NodeCommand {
  const entry = nodeEntry('main/engines/proxy-engine/main');
  return { ...entry, args: [...ENGINE_V8_FLAGS, ...entry.args, '--config', configFile] };
}
