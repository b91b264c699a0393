import type { RequestLogEntry } from '../../../engines/proxy-engine/traffic/request-entry.js';
import { Pricing } from '../../usage/pricing.js';

/**
 * Cost of one logged request from the price table (`resources/prices.json`, the same table and
 * rules as the usage views). Priced by the model sent upstream, else the model asked for; null
 * when the upstream reported no usage or neither name is in the table. Cache writes are priced
 * at the 5-minute rate: the usage a response reports does not say which TTL was written.
 */
export class RequestPricer {
  private pricing: Pricing | undefined;

  price<E extends RequestLogEntry>(entry: E): E & { costUSD: number | null } {
    return { ...entry, costUSD: this.costOf(entry) };
  }

  private costOf(entry: RequestLogEntry): number | null {
    const tokens = entry.tokens;
    if (!tokens) return null;
    this.pricing ??= new Pricing();
    const model = [entry.modelSent, entry.modelRequested].find((m) => m !== null && this.pricing!.priceOf(m) !== null);
    if (model === undefined || model === null) return null;
    return this.pricing.costOf({
      model,
      inputTokens: tokens.input,
      outputTokens: tokens.output,
      cacheWrite5mTokens: tokens.cacheWrite,
      cacheWrite1hTokens: 0,
      cacheReadTokens: tokens.cacheRead,
      fast: false,
    });
  }
}
