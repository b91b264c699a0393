import path from 'node:path';
import { expandHome } from '../../infra/home-path.js';
import type { ServiceContext } from '../context.js';
import { BinaryProber, type BinaryInfo } from './binary.js';
import { readSettingsFile, writeSettingsFile, type SettingsFileState } from './settings-file.js';

/** decisions §3: `<binary> --version` gets 5 s. */
export const VERSION_TIMEOUT_MS = 5_000;

export interface AgentToolDiagnostics {
  binary: BinaryInfo;
  settingsFile: {
    path: string;
    exists: boolean;
    mtime: number | null;
    sizeBytes: number | null;
    parseError: string | null;
  };
  warnings: string[];
}

export type AgentToolSettings = Omit<SettingsFileState, 'sizeBytes'> & { diagnostics: AgentToolDiagnostics };

export interface AgentToolOptions {
  versionTimeoutMs?: number;
}

/** The agent tool's binary and settings file, both named in config.yaml `agent_tool`. */
export class AgentToolService {
  private readonly prober: BinaryProber;

  constructor(
    private readonly ctx: Pick<ServiceContext, 'appConfig' | 'env' | 'paths' | 'clock'>,
    options: AgentToolOptions = {},
  ) {
    this.prober = new BinaryProber(options.versionTimeoutMs ?? VERSION_TIMEOUT_MS);
  }

  async diagnostics(): Promise<AgentToolDiagnostics> {
    return (await this.inspect()).diagnostics;
  }

  async readSettings(): Promise<AgentToolSettings> {
    const { file, diagnostics } = await this.inspect();
    const { sizeBytes: _size, ...rest } = file;
    return { ...rest, diagnostics };
  }

  async writeSettings(content: string, expectedMtime: number | null | undefined): Promise<{ success: true; mtime: number; backupPath?: string }> {
    const file = await this.settingsPath();
    const written = await writeSettingsFile(file, content, expectedMtime, {
      backupsDir: this.ctx.paths.backupsAgentToolDir,
      home: this.ctx.paths.configDir,
      now: new Date(this.ctx.clock.now()),
    });
    return { success: true, ...written };
  }

  /** One read of the file serves both the settings answer and its diagnostics. */
  private async inspect(): Promise<{ file: SettingsFileState; diagnostics: AgentToolDiagnostics }> {
    const { binary: name, settings_path } = (await this.ctx.appConfig.read()).config.agent_tool;
    const [probe, file] = await Promise.all([this.prober.probe(name, this.ctx.env), readSettingsFile(this.expand(settings_path))]);
    return { file, diagnostics: buildDiagnostics(probe.binary, probe.warnings, file) };
  }

  private async settingsPath(): Promise<string> {
    return this.expand((await this.ctx.appConfig.read()).config.agent_tool.settings_path);
  }

  private expand(settingsPath: string): string {
    return expandHome(settingsPath, this.ctx.env);
  }
}

function buildDiagnostics(binary: BinaryInfo, binaryWarnings: string[], file: SettingsFileState): AgentToolDiagnostics {
  const warnings = [...binaryWarnings];
  if (!file.exists) warnings.push(`Settings file ${file.path} does not exist yet`);
  if (file.parseError) warnings.push(`Settings file ${file.path} is not usable: ${file.parseError}`);
  return {
    binary,
    settingsFile: { path: file.path, exists: file.exists, mtime: file.mtime, sizeBytes: file.sizeBytes, parseError: file.parseError },
    warnings,
  };
}
