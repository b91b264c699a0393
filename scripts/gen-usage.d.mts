export interface GenUsageOptions {
  out: string;
  /** Total size, e.g. '3MB' (powers of 1024). */
  bytes?: string;
  seed?: number;
  projects?: number;
  /** Sessions per project. */
  sessions?: number;
  instances?: number;
  instanceShare?: number;
  /** First day, YYYY-MM-DD (UTC). */
  start?: string;
  days?: number;
  badRate?: number;
  noReqRate?: number;
}

export interface GenUsageManifest {
  generator: string;
  version: number;
  args: Record<string, unknown>;
  totals: { bytes: number; files: number; lines: number; sessions: number };
  claudeConfigDirs: string[];
  note: string;
}

export declare function parseSize(text: string): number;
export declare function generateUsage(options: GenUsageOptions): GenUsageManifest;
