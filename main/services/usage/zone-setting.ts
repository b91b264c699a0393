import { errorMessage } from '../../infra/file-stat.js';
import type { ServiceContext } from '../context.js';
import { isValidTimeZone, systemTimeZone } from './zone-calendar.js';

const RECHECK_MS = 5_000;

/**
 * The grouping zone when a request names none: `usage.timezone` from config.yaml, else the system
 * zone. Read at most every few seconds (and at once after a config change) so a cached endpoint
 * does not parse YAML per request. A zone Intl does not know falls back to the system zone.
 */
export class ZoneSetting {
  private zone: string | null = null;
  private readAt = -Infinity;
  /** One read at a time: two hundred concurrent requests must not parse config.yaml 200 times. */
  private reading: Promise<string> | null = null;
  private warned: string | null = null;
  /** Bumped whenever the zone may have changed, so answers remembered for the default zone are dropped. */
  epoch = 0;

  constructor(private readonly ctx: ServiceContext) {}

  watch(): () => void {
    return this.ctx.events.on('config-changed', ({ section }) => {
      if (section === 'usage') {
        this.zone = null;
        this.epoch++;
      }
    });
  }

  async current(): Promise<string> {
    const now = this.ctx.clock.now();
    if (this.zone !== null && now - this.readAt < RECHECK_MS && now >= this.readAt) return this.zone;
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    const zone = await this.reading;
    if (zone !== this.zone) this.epoch++;
    this.zone = zone;
    this.readAt = now;
    return zone;
  }

  /** Until when the zone last read is used without reading config.yaml again; null before a read. */
  validUntil(): number | null {
    return this.zone === null ? null : this.readAt + RECHECK_MS;
  }

  private async read(): Promise<string> {
    let configured = '';
    try {
      configured = (await this.ctx.appConfig.read()).config.usage.timezone.trim();
    } catch (err) {
      this.warnOnce(`config.yaml unreadable (${errorMessage(err)})`);
    }
    if (configured === '') return systemTimeZone();
    if (isValidTimeZone(configured)) return configured;
    this.warnOnce(`usage.timezone "${configured}" is not a known zone`);
    return systemTimeZone();
  }

  private warnOnce(message: string): void {
    if (this.warned === message) return;
    this.warned = message;
    this.ctx.logger.warn(`usage: ${message}; grouping by the system zone`);
  }
}
