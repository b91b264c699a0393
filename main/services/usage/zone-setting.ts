import { errorMessage } from '../../infra/file-stat.js';
import type { ServiceContext } from '../context.js';
import { DEFAULT_COST_MODE, isCostMode, type CostMode } from './cost-mode.js';
import { isValidTimeZone, systemTimeZone } from './zone-calendar.js';

const RECHECK_MS = 5_000;

/**
 * The grouping zone when a request names none: `usage.timezone` from config.yaml, else the system
 * zone. Read at most every few seconds (and at once after a config change) so a cached endpoint
 * does not parse YAML per request. A zone Intl does not know falls back to the system zone.
 * `usage.cost_mode` (the default cost mode) is read with it.
 */
export class ZoneSetting {
  private zone: string | null = null;
  private readAt = -Infinity;
  /** One read at a time: two hundred concurrent requests must not parse config.yaml 200 times. */
  private reading: Promise<{ zone: string; mode: CostMode }> | null = null;
  private mode: CostMode = DEFAULT_COST_MODE;
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
    if (this.zone !== null && this.readRecently(now)) return this.zone;
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    const { zone, mode } = await this.reading;
    if (zone !== this.zone || mode !== this.mode) this.epoch++;
    this.zone = zone;
    this.mode = mode;
    this.readAt = now;
    return zone;
  }

  /** The cost mode of the last read (the default before one). */
  knownMode(): CostMode {
    return this.mode;
  }

  /** The configured cost mode (read with the zone). */
  async currentMode(): Promise<CostMode> {
    await this.current();
    return this.mode;
  }

  /** Whether the zone was read at least once (answers for the default zone need it). */
  known(): boolean {
    return this.zone !== null;
  }

  /**
   * Starts the re-read in the background when the last one is older than the re-check interval:
   * for answers handed out from memory, which keep the zone they were built with until then. A
   * changed zone moves `epoch` when the read ends.
   */
  recheckIfDue(): void {
    if (this.zone === null || this.reading !== null || this.readRecently(this.ctx.clock.now())) return;
    this.current().catch((err) => this.ctx.logger.warn(`usage: zone re-read failed: ${errorMessage(err)}`));
  }

  /** Whether the last read is younger than the re-check interval (a clock set back makes it old). */
  private readRecently(now: number): boolean {
    return now - this.readAt < RECHECK_MS && now >= this.readAt;
  }

  private async read(): Promise<{ zone: string; mode: CostMode }> {
    let configured = '';
    let mode: unknown = DEFAULT_COST_MODE;
    try {
      const usage = (await this.ctx.appConfig.read()).config.usage;
      configured = usage.timezone.trim();
      mode = usage.cost_mode;
    } catch (err) {
      this.warnOnce(`config.yaml unreadable (${errorMessage(err)})`);
    }
    return { zone: this.zoneOf(configured), mode: isCostMode(mode) ? mode : DEFAULT_COST_MODE };
  }

  private zoneOf(configured: string): string {
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
