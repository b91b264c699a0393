import { readSharedContent, type SharedContent } from './content.js';
import { discover, listItems } from './discovery.js';
import { linkSharedDirs, type LinkOutcome } from './link.js';
import { linkPath, symlinkStatus, type SharedLocations } from './link-status.js';
import type { SharedItem, SharedSummary, SharedType } from './types.js';

export interface LinkResult {
  ok: boolean;
  outcomes: LinkOutcome[];
  summary: SharedSummary;
}

/** Shared commands, skills and agents under `{config_dir}/shared` (spec 2.4, decisions §3). */
export class SharedService {
  constructor(private readonly where: SharedLocations) {}

  list(type: SharedType): Promise<SharedItem[]> {
    return listItems(this.root(type), type);
  }

  /** `type` and `path` come straight from the client; both are checked here. */
  content(type: unknown, relPath: unknown): Promise<SharedContent> {
    return readSharedContent((t) => this.root(t), type, relPath);
  }

  async summary(): Promise<SharedSummary> {
    const [commands, skills, agents, status] = await Promise.all([
      discover(this.root('commands'), 'commands'),
      discover(this.root('skills'), 'skills'),
      discover(this.root('agents'), 'agents'),
      symlinkStatus(this.where),
    ]);
    return {
      commands: commands.length,
      skills: skills.length,
      agents: agents.length,
      total: commands.length + skills.length + agents.length,
      symlinkStatus: status,
    };
  }

  /** `switchboard shared link` and POST /api/shared/link. */
  async link(platform: NodeJS.Platform = process.platform): Promise<LinkResult> {
    const outcomes = await linkSharedDirs(this.where, platform);
    return { ok: outcomes.every((o) => o.action !== 'refused'), outcomes, summary: await this.summary() };
  }

  private root(type: SharedType): string {
    return linkPath(this.where, type);
  }
}
