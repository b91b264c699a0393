import { parseProxyConfig, ProxyConfigError } from '../../engines/proxy-engine/config.js';
import { MAX_REQUEST_LIMIT } from '../../engines/proxy-engine/traffic/request-query.js';
import type { ServiceContext } from '../context.js';
import { ProxyError } from './errors.js';
import type { ProxyService } from './proxy-service.js';
import { HEALTH_WINDOW_MS, upstreamHealth, type UpstreamHealth } from './upstream-health.js';
import { reloadUpstreams, type UpstreamsReload } from './reload-upstreams.js';
import { UpstreamFormError, withUpstreamList, type UpstreamFormRow } from './upstream-yaml.js';

export interface UpstreamsSaved {
  success: true;
  mtime: number;
  backupPath?: string;
  upstreams: string[];
  /** A running proxy is restarted to load them; a stopped one stays stopped. */
  proxy: UpstreamsReload;
}

/** The form's rows cannot be applied (two with one name, a rename of an upstream that is gone). */
export class UpstreamsFormError extends Error {}

export interface UpstreamHealthList {
  upstreams: UpstreamHealth[];
  /** The window the numbers cover, ms since epoch. */
  since: number;
  until: number;
  cooldownSeconds: number;
  /** proxy/config.yaml's mtime, for the form's expectedMtime. */
  configMtime: number;
}

/** The upstreams of proxy/config.yaml with their health over the last hour of the request log. */
export class UpstreamsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly proxy: ProxyService,
  ) {}

  async health(): Promise<UpstreamHealthList> {
    const { content, mtime } = await this.proxy.configFile.read();
    let config;
    try {
      config = parseProxyConfig(content, 'config.yaml');
    } catch (err) {
      if (err instanceof ProxyConfigError) throw new ProxyError('invalid-yaml', err.message);
      throw err;
    }
    const now = this.ctx.clock.now();
    const since = now - HEALTH_WINDOW_MS;
    const { requests } = await this.proxy.traffic.list({ since, limit: MAX_REQUEST_LIMIT });
    const cooldownSeconds = config.routing.cooldown_seconds;
    return { upstreams: upstreamHealth(config.upstreams, requests, now, cooldownSeconds), since, until: now, cooldownSeconds, configMtime: mtime };
  }

  /**
   * The upstream form's save (issue 30, point 5): the list replaces `upstreams` through the proxy
   * config file's validated, atomic write (backup first), comments and unknown keys kept.
   */
  async save(rows: UpstreamFormRow[], expectedMtime?: number): Promise<UpstreamsSaved> {
    const current = await this.proxy.configFile.read();
    let text: string;
    try {
      text = withUpstreamList(current.content, rows);
    } catch (err) {
      if (err instanceof UpstreamFormError) throw new UpstreamsFormError(err.message);
      throw new ProxyError('invalid-yaml', err instanceof Error ? err.message : String(err));
    }
    const written = await this.proxy.configFile.write(text, expectedMtime ?? current.mtime);
    const proxy = await reloadUpstreams(this.proxy.control, { startWhenStopped: false });
    return { success: true, mtime: written.mtime, ...(written.backupPath ? { backupPath: written.backupPath } : {}), upstreams: rows.map((r) => r.name), proxy };
  }
}
