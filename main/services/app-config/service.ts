import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { writeBackup } from '../../infra/backup.js';
import type { Clock } from '../../infra/clock.js';
import { isRecord } from '../../infra/json-checks.js';
import { describeIssue } from '../../infra/zod-issue.js';
import type { AppEvents } from '../events.js';
import { checkMtime } from '../mtime-conflict.js';
import { applyConfigToDocument } from './apply-to-document.js';
import { appConfigSchema, type AppConfig } from './schema.js';
import { maskSecrets, restoreSecrets } from './secrets.js';
import type { AppConfigStore } from './store.js';

/** The client's config failed the schema; `message` is `<path>: <problem>`. */
export class InvalidConfigError extends Error {}

export interface ConfigView {
  config: AppConfig;
  mtime: number | null;
  path: string;
}

/** GET and PUT /api/config (decisions §3) over the comment-keeping store. */
export class AppConfigService {
  constructor(
    private readonly store: AppConfigStore,
    private readonly backupsDir: string,
    /** {config_dir}: the backups directory must be a real directory inside it. */
    private readonly home: string,
    private readonly clock: Clock,
    private readonly events?: AppEvents,
  ) {}

  async get(): Promise<ConfigView> {
    const { config, mtime } = await this.store.read();
    return { config: maskSecrets(config), mtime, path: this.store.file };
  }

  /**
   * Replaces the whole config. Validation happens before anything is written; the file keeps
   * its comments and layout wherever the values did not change.
   */
  async put(next: Record<string, unknown>, expectedMtime: number | null | undefined): Promise<{ success: true; mtime: number | null; config: AppConfig }> {
    let before: AppConfig | undefined;
    const { snapshot } = await this.store.update(
      (doc, current) => {
        // decisions §1: validate, then the mtime check, then write.
        requireSections(next);
        const restored = restoreSecrets(next, current.config);
        const parsed = appConfigSchema.safeParse(restored);
        if (!parsed.success) throw new InvalidConfigError(describeIssue(parsed.error));
        checkMtime(expectedMtime, current.mtime);
        before = current.config;
        applyConfigToDocument(doc, current.config, restored);
      },
      { onReplace: (previous) => this.backup(previous) },
    );
    for (const section of changedSections(before ?? {}, snapshot.config)) this.events?.emit('config-changed', { section });
    return { success: true, mtime: snapshot.mtime, config: maskSecrets(snapshot.config) };
  }

  private async backup(previous: string): Promise<void> {
    await writeBackup(previous, {
      backupsDir: this.backupsDir,
      home: this.home,
      base: 'config',
      suffix: '.yaml',
      keep: 20,
      now: new Date(this.clock.now()),
    });
  }
}

/**
 * The PUT is a whole config, as GET returns it: every section must be there, so a partial or
 * stray object cannot reset the whole file to defaults. Inside a section, a key left out goes
 * back to its default.
 */
function requireSections(next: Record<string, unknown>): void {
  for (const section of configSections()) {
    if (!isRecord(next[section])) {
      throw new InvalidConfigError(`${section}: required section missing (send the whole config as GET /api/config returns it)`);
    }
  }
}

let sections: string[] | undefined;
/** Every top-level key whose default is an object: derived from the schema, so new sections count. */
function configSections(): string[] {
  sections ??= Object.entries(appConfigSchema.parse({}))
    .filter(([, value]) => isRecord(value))
    .map(([key]) => key);
  return sections;
}

function changedSections(current: Record<string, unknown>, next: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(current), ...Object.keys(next)]);
  return [...keys].filter((k) => !isDeepStrictEqual(current[k], next[k]));
}
