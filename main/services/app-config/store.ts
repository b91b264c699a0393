import YAML, { isMap, LineCounter, type Document, type YAMLError } from 'yaml';
import type { z } from 'zod';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { lockFile } from '../../infra/file-lock.js';
import { advanceMtime } from '../../infra/mtime-advance.js';
import { openOwnFile } from '../../infra/no-follow.js';
import { errorMessage, isNotFound } from '../../infra/file-stat.js';
import { appConfigSchema, type AppConfig } from './schema.js';
import { describeIssue } from '../../infra/zod-issue.js';
import { TOO_DEEP, valueTooDeep } from '../../infra/json-depth.js';
import { READ_LIMITS } from '../../infra/bounded-read.js';
import { readFileSettled, readFileTimed, type SettleOptions, type TimedRead } from '../../infra/settled-read.js';

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

export interface UpdateOptions {
  /**
   * Called with the file's previous text when an existing file is about to change (not when it
   * is created, nor when the new text is identical), e.g. to take a backup.
   */
  onReplace?: (previousText: string) => Promise<void>;
}

interface Loaded {
  doc: Document;
  text: string | null;
  mtime: number | null;
  lines: LineCounter;
}

/**
 * Reads and writes `{config_dir}/config.yaml` through the yaml package's document API, so
 * comments, key order and unknown keys survive every write.
 */
export class AppConfigStore {
  constructor(
    readonly file: string,
    /** Injected in tests to act between two reads of a file that looks mid-write. */
    private readonly settle: SettleOptions = {},
  ) {}

  async read(): Promise<ConfigSnapshot> {
    const loaded = await this.load();
    return { config: this.validate(loaded), mtime: loaded.mtime };
  }

  /**
   * Applies `mutate` to the parsed document under the file's write lock, validates the
   * result and writes it atomically. `mutate` may throw to abort without writing. A mutation
   * that changes nothing does not touch the file (its mtime stays).
   */
  async update<T>(
    mutate: (doc: Document, current: ConfigSnapshot) => T | Promise<T>,
    options: UpdateOptions = {},
  ): Promise<{ result: T; snapshot: ConfigSnapshot }> {
    return lockFile(this.file, async () => {
      const loaded = await this.load();
      const { doc } = loaded;
      const current = { config: this.validate(loaded), mtime: loaded.mtime };
      const result = await mutate(doc, current);
      if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as typeof doc.contents;
      const config = this.validate({ ...loaded, lines: new LineCounter() });
      const text = doc.toString();
      if (loaded.text !== null && text === loaded.text) return { result, snapshot: { config, mtime: loaded.mtime } };
      if (loaded.text !== null) await options.onReplace?.(loaded.text);
      await writeFileAtomic(this.file, text, { mode: 0o600 });
      return { result, snapshot: { config, mtime: await advanceMtime(this.file, loaded.mtime) } };
    });
  }

  /**
   * The file parsed. An editor may save it in place (truncate, then write): an empty file or one
   * that does not parse is read again while it looks mid-write (settled-read.ts), so a read
   * between the two neither answers "Invalid config file" nor takes the empty file for defaults.
   */
  private async load(): Promise<Loaded> {
    const loaded = await readFileSettled(async () => {
      const read = await this.readOnce();
      const value = parseLoaded(this.file, read);
      // An empty file parses (all defaults), yet may be one cut by a truncate.
      return { value, read, whole: 'doc' in value ? (read?.bytes.length ?? 0) > 0 : !value.torn };
    }, this.settle);
    if ('error' in loaded) throw loaded.error;
    return loaded;
  }

  private async readOnce(): Promise<TimedRead | null> {
    try {
      return await readFileTimed(this.file, READ_LIMITS.config, openOwnFile);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw new ConfigFileError(`${this.file}: cannot be read: ${errorMessage(err)}`);
    }
  }

  /** Validates the document; a failure names the file, the line (when known) and the key. */
  private validate({ doc, lines }: Pick<Loaded, 'doc' | 'lines'>): AppConfig {
    let raw: unknown;
    try {
      raw = doc.toJS() ?? {};
    } catch (err) {
      throw new ConfigFileError(`${this.file}: ${errorMessage(err)}`); // e.g. too many aliases
    }
    if (valueTooDeep(raw)) throw new ConfigFileError(`${this.file}: ${TOO_DEEP}`);
    const parsed = appConfigSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const line = lineOfIssue(doc, lines, parsed.error);
    throw new ConfigFileError(`${this.file}${line ? ` line ${line}` : ''}: ${describeIssue(parsed.error)}`);
  }
}

/**
 * The document of one read (null: no file), or why it does not parse; `torn`: what a partial
 * write could cause (the library's own limits, hit by absurd nesting, are not worth a second try).
 */
function parseLoaded(file: string, read: TimedRead | null): Loaded | { error: ConfigFileError; torn: boolean } {
  const text = read ? read.bytes.toString('utf8') : null;
  const mtime = read ? Math.floor(read.before.mtimeMs) : null;
  const lines = new LineCounter();
  let doc: Document;
  try {
    doc = YAML.parseDocument(text ?? '', { prettyErrors: true, keepSourceTokens: false, lineCounter: lines });
  } catch (err) {
    // The library's own limits (a stack overflow on absurd nesting): the file is unreadable.
    return { error: new ConfigFileError(`${file}: ${errorMessage(err).split('\n')[0]}`), torn: false };
  }
  if (doc.errors.length > 0) return { error: new ConfigFileError(`${file}: ${describeYamlError(doc.errors[0]!)}`), torn: true };
  if (doc.contents !== null && !isMap(doc.contents)) return { error: new ConfigFileError(`${file}: the top level must be a mapping`), torn: true };
  return { doc, text, mtime, lines };
}

/** "line 3, column 6: Block collections are not allowed..." without the source excerpt. */
function describeYamlError(error: YAMLError): string {
  const pos = error.linePos?.[0];
  const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return pos ? `line ${pos.line}, column ${pos.col}: ${message}` : message;
}

/** Line of the node an issue is about, or of its nearest ancestor present in the file. */
function lineOfIssue(doc: Document, lines: LineCounter, error: z.ZodError): number | undefined {
  const path = [...(error.issues[0]?.path ?? [])].map(String);
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range && lines.lineStarts.length > 0) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

/** Sets a nested key in a YAML document, creating maps on the way; keeps everything else. */
export function setIn(doc: Document, path: string[], value: unknown): void {
  doc.setIn(path, value);
}

export function deleteIn(doc: Document, path: string[]): void {
  if (doc.hasIn(path)) doc.deleteIn(path);
}
