import fs from 'node:fs';
import type { ServiceContext } from '../../context.js';
import { transcriptsDir } from '../discover.js';
import type { AgentPlaces } from '../usage-loader.js';
import type { UsageRecord } from '../types.js';
import { CLAUDE, dirsOf, LOADERS, UNSUPPORTED } from './registry.js';

type AgentsSetting = Record<string, { enabled: boolean; dirs?: string[] }>;

async function agentsSetting(ctx: ServiceContext): Promise<AgentsSetting> {
  try {
    return (await ctx.appConfig.read()).config.usage.agents;
  } catch {
    return {}; // a damaged config.yaml: every agent on, default places (the zone read warns about it)
  }
}

/** Which agents a scan reads and where, from config.yaml `usage.agents` and the environment. */
export async function agentPlaces(ctx: ServiceContext): Promise<AgentPlaces> {
  const setting = await agentsSetting(ctx);
  return {
    claude: setting.claude?.enabled ?? true,
    agents: LOADERS.filter((l) => setting[l.id]?.enabled ?? true).map((loader) => ({ loader, dirs: dirsOf(loader, setting[loader.id]?.dirs, ctx.env) })),
  };
}

/** One row of `GET /api/usage/agents` (decisions §5.1). */
export interface AgentStatus {
  id: string;
  name: string;
  supported: boolean;
  enabled: boolean;
  dirs: string[];
  found: boolean;
  files: number;
  records: number;
  lastActivity: string | null;
  reason?: string;
}

/** What was looked for and where, with what the store holds per agent. */
export async function agentStatuses(ctx: ServiceContext, kept: readonly UsageRecord[], filesFound: Map<string, number> | null): Promise<AgentStatus[]> {
  const setting = await agentsSetting(ctx);
  const held = new Map<string, { records: number; last: number; files: Set<string> }>();
  for (const r of kept) {
    let h = held.get(r.agent);
    if (!h) held.set(r.agent, (h = { records: 0, last: -Infinity, files: new Set() }));
    h.records++;
    if (r.timestamp > h.last) h.last = r.timestamp;
    h.files.add(r.file);
  }
  const row = (id: string, name: string, supported: boolean, dirs: string[], reason?: string): AgentStatus => {
    const h = held.get(id);
    return {
      id,
      name,
      supported,
      enabled: setting[id]?.enabled ?? true,
      dirs,
      found: dirs.some((d) => fs.existsSync(d)),
      files: filesFound?.get(id) ?? h?.files.size ?? 0,
      records: h?.records ?? 0,
      lastActivity: h ? new Date(h.last).toISOString() : null,
      ...(reason !== undefined ? { reason } : {}),
    };
  };
  return [
    row(CLAUDE.id, CLAUDE.name, true, [transcriptsDir(ctx.paths.agentDir)]),
    ...LOADERS.map((l) => row(l.id, l.name, true, dirsOf(l, setting[l.id]?.dirs, ctx.env))),
    ...UNSUPPORTED.map((u) => row(u.id, u.name, false, dirsOf(u, setting[u.id]?.dirs, ctx.env), u.reason)),
  ];
}
