import fs from 'node:fs/promises';
import YAML, { isMap, type Document } from 'yaml';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { serializeFile } from '../../infra/file-lock.js';
import { isNotFound, toMtime } from '../../infra/file-stat.js';
import { appConfigSchema, type AppConfig } from './schema.js';
import { describeIssue } from '../../infra/zod-issue.js';

/** config.yaml could not be parsed or validated; endpoints answer 500 "Invalid config file". */
export class ConfigFileError extends Error {
  constructor(message: string) {
    super(message);
  }
}

export interface ConfigSnapshot {
  config: AppConfig;
  /** null when the file does not exist yet. */
  mtime: number | null;
}

/**
 * Reads and writes `{config_dir}/config.yaml` through the yaml package's document API, so
 * comments, key order and unknown keys survive every write.
 */
export class AppConfigStore {
  constructor(readonly file: string) {}

  async read(): Promise<ConfigSnapshot> {
    const { doc, mtime } = await this.load();
    return { config: validate(doc.toJS() ?? {}), mtime };
  }

  /**
   * Applies `mutate` to the parsed document under the file's write lock, validates the
   * result and writes it atomically. `mutate` may throw to abort without writing.
   */
  async update<T>(mutate: (doc: Document, current: ConfigSnapshot) => T | Promise<T>): Promise<{ result: T; snapshot: ConfigSnapshot }> {
    return serializeFile(this.file, async () => {
      const { doc, mtime } = await this.load();
      const current = { config: validate(doc.toJS() ?? {}), mtime };
      const result = await mutate(doc, current);
      if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as typeof doc.contents;
      const config = validate(doc.toJS() ?? {});
      await writeFileAtomic(this.file, doc.toString(), { mode: 0o600 });
      const stat = await fs.stat(this.file);
      return { result, snapshot: { config, mtime: toMtime(stat.mtimeMs) } };
    });
  }

  private async load(): Promise<{ doc: Document; mtime: number | null }> {
    let text: string;
    let mtime: number | null;
    try {
      const [content, stat] = await Promise.all([fs.readFile(this.file, 'utf8'), fs.stat(this.file)]);
      text = content;
      mtime = toMtime(stat.mtimeMs);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      text = '';
      mtime = null;
    }
    const doc = YAML.parseDocument(text, { prettyErrors: true, keepSourceTokens: false });
    if (doc.errors.length > 0) {
      const first = doc.errors[0]!;
      const line = first.linePos?.[0]?.line;
      throw new ConfigFileError(`${this.file}${line ? ` line ${line}` : ''}: ${first.message.split('\n')[0]}`);
    }
    if (doc.contents !== null && !isMap(doc.contents)) {
      throw new ConfigFileError(`${this.file}: the top level must be a mapping`);
    }
    return { doc, mtime };
  }
}

function validate(raw: unknown): AppConfig {
  const parsed = appConfigSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigFileError(describeIssue(parsed.error));
  return parsed.data;
}

/** Sets a nested key in a YAML document, creating maps on the way; keeps everything else. */
export function setIn(doc: Document, path: string[], value: unknown): void {
  doc.setIn(path, value);
}

export function deleteIn(doc: Document, path: string[]): void {
  if (doc.hasIn(path)) doc.deleteIn(path);
}
