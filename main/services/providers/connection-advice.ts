import type { ConnectionTarget } from './connection-test.js';

/** Why a connection test failed, before it is put in words. */
export type Failure =
  | { kind: 'http'; status: number; body: string }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'dns'; host: string; code: string }
  | { kind: 'refused'; address: string }
  | { kind: 'tls'; code: string; detail: string }
  | { kind: 'closed'; detail: string }
  | { kind: 'blocked-port'; detail: string }
  | { kind: 'other'; detail: string };

const TLS_CODE = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$)/;

/** Sorts a fetch failure (undici puts the system error in `cause`) into the cases the user can act on. */
export function describeFailure(err: unknown, timeoutMs: number): Failure {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string; hostname?: string; address?: string; port?: number } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return { kind: 'timeout', timeoutMs };
  const cause = e?.cause;
  const code = cause?.code ?? '';
  const detail = cause?.message ?? e?.message ?? String(err);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return { kind: 'dns', host: cause?.hostname ?? '', code };
  if (code === 'ECONNREFUSED') return { kind: 'refused', address: cause?.address && cause.port ? `${cause.address}:${cause.port}` : '' };
  if (TLS_CODE.test(code)) return { kind: 'tls', code, detail };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return { kind: 'closed', detail };
  // fetch refuses the ports the Fetch standard blocks (9, 25, 6000, …) before connecting.
  if (/bad port/i.test(detail)) return { kind: 'blocked-port', detail };
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') return { kind: 'timeout', timeoutMs };
  return { kind: 'other', detail };
}

/** One sentence on what happened and one on what to do about it. */
export function adviceFor(failure: Failure, target: Pick<ConnectionTarget, 'baseUrl' | 'keyUrl' | 'model'>): string {
  switch (failure.kind) {
    case 'http':
      return httpAdvice(failure.status, providerMessage(failure.body), target);
    case 'timeout':
      return `No answer within ${duration(failure.timeoutMs)} from ${target.baseUrl}. Check your network (VPN, firewall, HTTPS proxy) and the provider's status page, then test again.`;
    case 'dns':
      return `The host ${failure.host || hostOf(target.baseUrl)} could not be found (${failure.code}). Check the spelling of the base URL and that this machine can resolve names (DNS, VPN, offline?).`;
    case 'refused':
      return `Connection refused at ${failure.address || hostOf(target.baseUrl)}: nothing listens there. For a local server (Ollama, LM Studio) start it first; otherwise check the port in the base URL.`;
    case 'tls':
      return `TLS error (${failure.code}): the server's certificate could not be verified. If a company proxy inspects HTTPS, point NODE_EXTRA_CA_CERTS at its CA certificate; also check that the base URL uses the right scheme (https:// vs http://).`;
    case 'closed':
      return `The server closed the connection before answering (${failure.detail}). Check that the base URL points at an API (not a web page) and that a proxy is not cutting the connection.`;
    case 'blocked-port':
      return `The port in ${target.baseUrl} is one that HTTP clients refuse to use (a "bad port" such as 9, 25 or 6000). Use the server's real port.`;
    case 'other':
      return `The request failed: ${failure.detail}. Check the base URL.`;
  }
}

function httpAdvice(status: number, said: string, target: Pick<ConnectionTarget, 'baseUrl' | 'keyUrl' | 'model'>): string {
  const quoted = said ? ` The provider said: "${said}".` : '';
  if (status === 401 || status === 403) {
    const where = target.keyUrl ? ` Get or check a key at ${target.keyUrl}.` : '';
    return `The key was refused (${status}).${quoted} Paste the whole key again, and check it belongs to this provider and region and is active.${where}`;
  }
  if (status === 404) {
    return `Not found (404) at ${target.baseUrl}.${quoted} The base URL is probably wrong (a missing or extra path such as /v1 or /anthropic)${target.model ? `, or the model ${target.model} does not exist there` : ''}.`;
  }
  if (status === 429) return `Rate limited or out of credit (429).${quoted} Check the account's balance and limits, then test again later.`;
  if (status === 400 || status === 422) return `The provider refused the request (${status}).${quoted} Check the model name${target.model ? ` (${target.model})` : ''}.`;
  if (status >= 500) return `The provider had an error (${status}).${quoted} Try again later or check its status page.`;
  if (status >= 300 && status < 400) return `The endpoint redirects (${status}): the base URL is probably a web page, not the API.`;
  return `Unexpected answer (${status}).${quoted}`;
}

/** The provider's own error text (OpenAI `error.message`, Anthropic `error.message`, or `message`), short. */
function providerMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const text = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    return typeof text === 'string' ? text.slice(0, 200) : '';
  } catch {
    return body.trim().slice(0, 120);
  }
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
