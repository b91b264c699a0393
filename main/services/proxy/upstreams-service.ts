import { parseProxyConfig, ProxyConfigError } from '../../engines/proxy-engine/config.js';
import { MAX_REQUEST_LIMIT } from '../../engines/proxy-engine/traffic/request-query.js';
import type { ServiceContext } from '../context.js';
import { ProxyError } from './errors.js';
import type { ProxyService } from './proxy-service.js';
import { HEALTH_WINDOW_MS, upstreamHealth, type UpstreamHealth } from './upstream-health.js';

export interface UpstreamHealthList {
  upstreams: UpstreamHealth[];
  /** The window the numbers cover, ms since epoch. */
  since: number;
  until: number;
  cooldownSeconds: number;
}

/** The upstreams of proxy/config.yaml with their health over the last hour of the request log. */
export class UpstreamsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly proxy: ProxyService,
  ) {}

  async health(): Promise<UpstreamHealthList> {
    const { content } = await this.proxy.configFile.read();
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
    return { upstreams: upstreamHealth(config.upstreams, requests, now, cooldownSeconds), since, until: now, cooldownSeconds };
  }
}
