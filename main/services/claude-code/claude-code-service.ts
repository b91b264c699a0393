import path from 'node:path';
import { removeStaleTempFiles } from '../../infra/atomic-write.js';
import { serializeFile } from '../../infra/file-lock.js';
import { errorMessage } from '../../infra/file-stat.js';
import { isRecord } from '../../infra/json-checks.js';
import type { ServiceContext } from '../context.js';
import { launchEnv } from '../profiles/launch-env.js';
import { SettingsError } from '../settings/errors.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { mtimeOf, parseAgentSettings, readAgentFile, tempNamesOf, type AgentFile } from './agent-file.js';
import { ClaudeCodeError } from './errors.js';
import { modeFor } from './file-mode.js';
import { mergeEnv, ownedKeysIntact } from './merge-env.js';
import { readRecord, readStep, removeRecord, removeStep, sha256, snapshotOf, writeRecord, writeStep, type ClaudeCodeRecord, type FileSnapshot } from './record.js';
import { rewriteAgentFile } from './rewrite.js';
import { describeStatus, type ClaudeCodeStatus } from './status.js';

export type { ClaudeCodeStatus };

export interface ClaudeCodeApplied {
  success: true;
  path: string;
  profile: string;
  keys: string[];
  /** null when there was no file to back up. */
  backupPath: string | null;
  /** The file's mode now, e.g. "0600". */
  mode: string;
  /** True when the file was narrowed to 0600 because the env written holds a secret. */
  narrowed: boolean;
}

export interface ClaudeCodeRestored {
  success: true;
  path: string;
  restored: true;
  backupPath: string | null;
  /** Undo steps left after this one (0 after a restore of the original). */
  undoSteps: number;
}

const BACKUP = { base: 'claude-code-settings', suffix: '.json', keep: 20 } as const;
/** Undo steps kept; older ones go, the original never (it is kept in the record). */
const MAX_STEPS = 50;

/**
 * "Use for Claude Code" (issues 18, 27): merges a profile's env, as launched, into the `env` of
 * `{agent_dir}/settings.json`, key by key, leaving every other key as it was; the user's own value
 * of a key comes back when no profile sets it any more; Undo walks back step by step; the file
 * before the first apply can be restored at any time.
 */
export class ClaudeCodeService {
  private readonly file: string;
  private readonly recordFile: string;
  private readonly historyDir: string;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly store: SettingsStore,
  ) {
    this.file = path.join(ctx.paths.agentDir, 'settings.json');
    this.recordFile = ctx.paths.claudeCodeRecord;
    this.historyDir = ctx.paths.claudeCodeHistoryDir;
  }

  /** Removes temp files of settings.json that a killed write left in the agent dir (only those: the dir is not ours). */
  async start(): Promise<void> {
    const { dir, name } = await tempNamesOf(this.file);
    const removed = await removeStaleTempFiles(dir, 60_000, name);
    if (removed > 0) this.ctx.logger.info(`removed ${removed} stale temp file(s) of ${this.file}`);
  }

  async status(): Promise<ClaudeCodeStatus> {
    const [current, record] = await Promise.all([readAgentFile(this.file), this.record()]);
    const profileEnv = record?.applied ? await this.profileEnv(record.applied.profile).catch(() => null) : null;
    return describeStatus(this.file, current, record, profileEnv);
  }

  /**
   * `keepUndo`: a refresh made for the user (key rotation, a preset, a profile edit) is no Undo
   * step of its own: Undo goes back past it to the file before the user's apply.
   */
  async apply(profile: string, options: { keepUndo?: boolean } = {}): Promise<ClaudeCodeApplied> {
    const env = await this.profileEnv(profile);
    if (!env) throw new SettingsError('not-found', `No settings file for profile ${profile}`);
    return serializeFile(this.file, async () => {
      const record = await this.record();
      const done = await rewriteAgentFile(this.file, this.backups(), (current) => {
        const settings = current ? parseAgentSettings(current.bytes, this.file) : {};
        const merged = mergeEnv(isRecord(settings.env) ? settings.env : {}, env, record?.owned ?? {}, record?.applied ?? null);
        return { content: `${JSON.stringify({ ...settings, env: merged.env }, null, 2)}\n`, mode: modeFor(this.file, current, merged.env), data: merged };
      });
      const keys = Object.keys(env).sort();
      const applied = {
        profile,
        appliedAt: this.ctx.clock.now(),
        keys,
        values: Object.fromEntries(keys.map((k) => [k, sha256(env[k]!)])),
        written: { sha256: sha256(done.written!), mtime: (await mtimeOf(this.file)) ?? 0 },
      };
      const before = snapshotOf(done.replaced);
      const steps = options.keepUndo && record ? record.steps : await this.pushStep(record, before);
      await this.saveRecord({ version: 2, path: this.file, original: record?.original ?? before, owned: done.data.owned, applied, steps });
      const narrowed = done.replaced !== null && done.mode !== done.replaced.mode;
      return { success: true as const, path: this.file, profile, keys, backupPath: done.backupPath, mode: `0${done.mode.toString(8)}`, narrowed };
    });
  }

  /**
   * After a profile was rewritten (preset applied, routed, key rotated, edited): the profile
   * applied here follows, under the apply rules, unless the user took one of the keys Switchboard
   * wrote (then the dashboard says Claude Code still uses the old values, with a re-apply).
   */
  async followProfiles(profiles: string[]): Promise<boolean> {
    const record = await this.record();
    if (!record?.applied || !profiles.includes(record.applied.profile)) return false;
    const current = await readAgentFile(this.file);
    if (!current) return false; // the user removed the file: not recreated behind their back
    const settings = parseAgentSettings(current.bytes, this.file);
    if (!ownedKeysIntact(isRecord(settings.env) ? settings.env : {}, record.applied)) return false;
    await this.apply(record.applied.profile, { keepUndo: true });
    return true;
  }

  /** followProfiles for a profile edit: never fails the edit, a problem is logged. */
  async followProfileEdit(profile: string): Promise<void> {
    await this.followProfiles([profile]).catch((err: unknown) => this.ctx.logger.warn(`Claude Code settings not updated: ${errorMessage(err)}`));
  }

  /** One step back: the file as it was before the last apply, and what Switchboard knew then. */
  async undo(): Promise<ClaudeCodeRestored> {
    return serializeFile(this.file, async () => {
      const record = await this.record();
      if (!record?.applied) throw new ClaudeCodeError('nothing-to-undo', 'No Claude Code settings change of Switchboard is recorded');
      const id = record.steps.at(-1);
      const step = id === undefined ? null : await readStep(this.historyDir, id);
      const done = await this.putBack(step?.before ?? record.original);
      const steps = record.steps.slice(0, -1);
      if (!step || !step.applied) await removeRecord(this.recordFile, this.historyDir);
      else {
        await this.saveRecord({ ...record, owned: step.owned, applied: step.applied, steps });
        await removeStep(this.historyDir, id!);
      }
      return { success: true as const, path: this.file, restored: true as const, backupPath: done.backupPath, undoSteps: step?.applied ? steps.length : 0 };
    });
  }

  /** "Restore my original settings": the file before Switchboard's first apply, byte for byte; then forgets everything. */
  async restore(): Promise<ClaudeCodeRestored> {
    return serializeFile(this.file, async () => {
      const record = await this.record();
      if (!record) throw new ClaudeCodeError('nothing-to-restore', 'Switchboard keeps no original Claude Code settings: it has not changed them');
      const done = await this.putBack(record.original);
      await removeRecord(this.recordFile, this.historyDir);
      return { success: true as const, path: this.file, restored: true as const, backupPath: done.backupPath, undoSteps: 0 };
    });
  }

  /** Puts a kept version back (the current file is backed up first, so later edits are not lost). */
  private putBack(snapshot: FileSnapshot) {
    return rewriteAgentFile(this.file, this.backups(), (current: AgentFile | null) => {
      if (current) modeFor(this.file, current, {}); // a read-only file is not replaced
      return snapshot.existed
        ? { content: Buffer.from(snapshot.contentBase64, 'base64'), mode: snapshot.mode, data: null }
        : { content: null, mode: 0, data: null };
    });
  }

  private async pushStep(record: ClaudeCodeRecord | null, before: FileSnapshot): Promise<number[]> {
    const steps = record?.steps ?? [];
    const id = (steps.at(-1) ?? 0) + 1;
    await writeStep(this.historyDir, id, { before, owned: record?.owned ?? {}, applied: record?.applied ?? null });
    const kept = [...steps, id];
    for (const old of kept.splice(0, Math.max(0, kept.length - MAX_STEPS))) await removeStep(this.historyDir, old);
    return kept;
  }

  private async saveRecord(record: ClaudeCodeRecord): Promise<void> {
    try {
      await writeRecord(this.recordFile, record);
    } catch (err) {
      throw new ClaudeCodeError('write-failed', errorMessage(err));
    }
  }

  private async profileEnv(profile: string): Promise<Record<string, string> | null> {
    const snapshot = await this.store.readValid(profile);
    return snapshot ? launchEnv(snapshot.data.env) : null;
  }

  private backups() {
    return { backupsDir: this.ctx.paths.backupsDir, home: this.ctx.paths.configDir, ...BACKUP, now: () => new Date(this.ctx.clock.now()) };
  }

  private record(): Promise<ClaudeCodeRecord | null> {
    return readRecord(this.recordFile, this.file);
  }
}
