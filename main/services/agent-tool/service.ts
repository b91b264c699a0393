import path from 'node:path';
import { expandHome } from '../../infra/home-path.js';
import type { ServiceContext } from '../context.js';
import { BinaryProber, type BinaryInfo, type BinaryProbe } from './binary.js';
import { chooseAgent, noAgentWarning, type AgentChoice, type AgentSource, type DetectedAgent } from './known-agents.js';
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
  /** The agent shown (issue 28.4): its command, its name when known, and why it was chosen. */
  tool: { binary: string; name: string | null; source: AgentSource };
  /** Known agents found on PATH. */
  detected: DetectedAgent[];
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
    const choice = await this.choose();
    const notInstalled: BinaryProbe = { binary: { installed: false, path: null, version: null }, warnings: [noAgentWarning()] };
    const [probe, file] = await Promise.all([
      choice.source === 'none' ? notInstalled : this.prober.probe(choice.binary, this.ctx.env),
      readSettingsFile(this.expand(choice.settingsPath)),
    ]);
    return { file, diagnostics: buildDiagnostics(probe, file, choice) };
  }

  private async choose(): Promise<AgentChoice> {
    const { binary, settings_path } = (await this.ctx.appConfig.read()).config.agent_tool;
    return chooseAgent({ binary, settingsPath: settings_path }, this.ctx.env);
  }

  private async settingsPath(): Promise<string> {
    return this.expand((await this.choose()).settingsPath);
  }

  private expand(settingsPath: string): string {
    return expandHome(settingsPath, this.ctx.env);
  }
}

function buildDiagnostics(probe: BinaryProbe, file: SettingsFileState, choice: AgentChoice): AgentToolDiagnostics {
  const { binary } = probe;
  const warnings = [...probe.warnings];
  // With no agent at all, its missing settings file is not a second problem to report.
  if (!file.exists && choice.source !== 'none') warnings.push(`Settings file ${file.path} does not exist yet`);
  if (file.parseError) warnings.push(`Settings file ${file.path} is not usable: ${file.parseError}`);
  return {
    binary,
    settingsFile: { path: file.path, exists: file.exists, mtime: file.mtime, sizeBytes: file.sizeBytes, parseError: file.parseError },
    warnings,
    tool: { binary: choice.binary, name: choice.name, source: choice.source },
    detected: choice.detected,
  };
}
