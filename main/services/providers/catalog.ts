import fs from 'node:fs/promises';
import path from 'node:path';
import { resourcePath } from '../../infra/app-root.js';
import { errorMessage, readTextIfExists } from '../../infra/file-stat.js';
import type { Logger } from '../../infra/logger.js';
import { describeIssue } from '../../infra/zod-issue.js';
import { catalogFileSchema, userCatalogFileSchema, type ProviderEntry } from './catalog-schema.js';

export interface CatalogEntry extends ProviderEntry {
  /** `user` when `{config_dir}/providers.json` added or replaced it. */
  origin: 'builtin' | 'user';
}

/**
 * The provider catalogue: the shipped `resources/providers.json` plus the user's own
 * `{config_dir}/providers.json` (same entry shape; an entry with a built-in id replaces it).
 * A broken user file is logged and skipped: it must not hide the built-in catalogue.
 */
export class ProviderCatalog {
  private builtin: ProviderEntry[] | undefined;

  constructor(
    private readonly configDir: string,
    private readonly logger: Logger,
    private readonly builtinFile = resourcePath('providers.json'),
  ) {}

  async list(): Promise<CatalogEntry[]> {
    const builtin = await this.loadBuiltin();
    const user = await this.loadUser();
    const byId = new Map<string, CatalogEntry>(builtin.map((e) => [e.id, { ...e, origin: 'builtin' as const }]));
    for (const entry of user) byId.set(entry.id, { ...entry, origin: 'user' });
    return [...byId.values()];
  }

  async find(id: string): Promise<CatalogEntry | null> {
    return (await this.list()).find((e) => e.id === id) ?? null;
  }

  private async loadBuiltin(): Promise<ProviderEntry[]> {
    if (!this.builtin) this.builtin = parseCatalog(await fs.readFile(this.builtinFile, 'utf8'), this.builtinFile);
    return this.builtin;
  }

  private async loadUser(): Promise<ProviderEntry[]> {
    const file = path.join(this.configDir, 'providers.json');
    try {
      const text = await readTextIfExists(file);
      if (text === null) return [];
      const parsed = userCatalogFileSchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(describeIssue(parsed.error));
      return parsed.data.providers;
    } catch (err) {
      this.logger.warn(`${file} ignored: ${errorMessage(err)}`);
      return [];
    }
  }
}

/** The shipped file, validated; a broken one is a build defect, so it throws. */
export function parseCatalog(text: string, file = 'providers.json'): ProviderEntry[] {
  const parsed = catalogFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file}: ${describeIssue(parsed.error)}`);
  const ids = new Set<string>();
  for (const entry of parsed.data.providers) {
    if (ids.has(entry.id)) throw new Error(`${file}: duplicate id ${entry.id}`);
    ids.add(entry.id);
  }
  return parsed.data.providers;
}
