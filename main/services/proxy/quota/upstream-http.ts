import { errorMessage } from '../../../infra/file-stat.js';
import { QuotaFetchError, type QuotaHttp } from './types.js';

/**
 * The quota adapters' one way out: JSON over fetch with a timeout. Messages name the endpoint
 * (origin and path, never headers or tokens) and the status, plus the start of an error body.
 */
export function createQuotaHttp(timeoutMs = 10_000): QuotaHttp {
  return async (url, init) => {
    const where = describe(url);
    let res: Response;
    try {
      res = await fetch(url, {
        method: init.method,
        headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (isTimeout(err)) throw new QuotaFetchError(`${where} did not answer within ${timeoutMs} ms`);
      const cause = (err as { cause?: unknown }).cause;
      throw new QuotaFetchError(`${where} unreachable: ${cause ? errorMessage(cause) : errorMessage(err)}`);
    }
    let text = '';
    let cut: unknown;
    try {
      text = await res.text();
    } catch (err) {
      cut = err; // the timeout (or the peer) ended the body: say so, not "not JSON"
    }
    if (!res.ok) {
      const hint = res.status === 401 ? ' (the access token was refused; sign in to the provider again)' : '';
      throw new QuotaFetchError(`${where} answered HTTP ${res.status}${hint}${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    if (cut !== undefined) {
      throw new QuotaFetchError(`${where} stopped sending its answer: ${isTimeout(cut) ? `not complete within ${timeoutMs} ms` : errorMessage(cut)}`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new QuotaFetchError(`${where} answered with a body that is not JSON`);
    }
  };
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}

function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'the quota endpoint';
  }
}
