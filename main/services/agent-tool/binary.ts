import fs from 'node:fs/promises';
import { findExecutable } from '../../infra/find-executable.js';
import { runCommand } from '../../infra/run-command.js';

export interface BinaryInfo {
  installed: boolean;
  path: string | null;
  version: string | null;
}

export interface BinaryProbe {
  binary: BinaryInfo;
  warnings: string[];
}

interface VersionAnswer {
  version: string | null;
  warning?: string;
}

/**
 * Finds the agent tool's binary and asks it for its version. A missing binary or a probe that
 * fails is reported in `warnings`, never thrown: diagnostics exist to explain such states.
 * Answers are cached per binary file (path, size, mtime) so a polling dashboard does not
 * spawn a process per request, and a reinstall is noticed.
 */
export class BinaryProber {
  private readonly cache = new Map<string, VersionAnswer>();

  constructor(private readonly timeoutMs: number) {}

  async probe(name: string, env: NodeJS.ProcessEnv): Promise<BinaryProbe> {
    const found = await findExecutable(name, env);
    if (found === null) {
      const where = name.includes('/') || name.includes('\\') ? `at ${name}` : 'on PATH';
      return {
        binary: { installed: false, path: null, version: null },
        warnings: [`Agent tool binary '${name}' was not found ${where}`],
      };
    }
    const answer = await this.version(found, env);
    return {
      binary: { installed: true, path: found, version: answer.version },
      warnings: answer.warning ? [answer.warning] : [],
    };
  }

  private async version(file: string, env: NodeJS.ProcessEnv): Promise<VersionAnswer> {
    const stat = await fs.stat(file).catch(() => null);
    if (stat === null) return this.ask(file, env); // removed between lookup and probe
    const key = `${file}\0${stat.size}\0${stat.mtimeMs}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const answer = await this.ask(file, env);
    this.cache.set(key, answer);
    return answer;
  }

  private async ask(file: string, env: NodeJS.ProcessEnv): Promise<VersionAnswer> {
    const result = await runCommand(file, ['--version'], { timeoutMs: this.timeoutMs, env });
    const failed = (why: string): VersionAnswer => ({ version: null, warning: `Could not read the version of ${file}: ${why}` });
    if (result.error) return failed(result.error.message);
    if (result.timedOut) return failed(`no answer to --version within ${formatSeconds(this.timeoutMs)}`);
    if (result.code !== 0) return failed(`--version exited with code ${result.code ?? 'null (killed)'}`);
    const line = firstLine(result.stdout) ?? firstLine(result.stderr);
    return line ? { version: line } : failed('--version printed nothing');
  }
}

function firstLine(text: string): string | undefined {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line?.slice(0, 200);
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
