import { overrideOrigin, type OriginOverrides } from '../../infra/origin-overrides.js';
import type { ProviderFormat } from './catalog-schema.js';
import { adviceFor, describeFailure, type Failure } from './connection-advice.js';

/** What to test: an endpoint in one of the two wire formats, with its key and a model to ask. */
export interface ConnectionTarget {
  format: ProviderFormat;
  /** As the proxy YAML writes it: with `/v1` for openai, without for anthropic. */
  baseUrl: string;
  apiKey?: string;
  /** How the key is sent: Claude Code's ANTHROPIC_AUTH_TOKEN is a Bearer token, ANTHROPIC_API_KEY is x-api-key. */
  auth?: 'bearer' | 'x-api-key';
  model?: string;
  /** false: skip the models list and send the one-token message at once. */
  modelsEndpoint?: boolean;
  /** Where a new key comes from, for the 401 advice. */
  keyUrl?: string | null;
}

export interface ConnectionResult {
  ok: boolean;
  /** HTTP status of the last request; null when no answer came (timeout, DNS, refused, TLS). */
  status: number | null;
  latencyMs: number;
  message: string;
  models?: string[];
}

export interface ConnectionOptions {
  overrides?: OriginOverrides;
  timeoutMs?: number;
  now?: () => number;
}

export const DEFAULT_TEST_TIMEOUT_MS = 15_000;
/** A models list or an error body larger than this is cut (a models list of 1 MiB is thousands of ids). */
const BODY_LIMIT = 1024 * 1024;

/**
 * decisions §4.2 connection test: one real, minimal request. The models list when the endpoint
 * has one (no tokens spent), else, or when the list is not found, a one-token message. The
 * answer says what to do next when it fails.
 */
export async function testConnection(target: ConnectionTarget, options: ConnectionOptions = {}): Promise<ConnectionResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const latency = () => Math.round(now() - started);
  try {
    if (target.modelsEndpoint !== false) {
      const answer = await send(listRequest(target), options);
      if (answer.status < 300) {
        const models = modelIds(answer.body);
        return { ok: true, status: answer.status, latencyMs: latency(), message: listedMessage(models), models };
      }
      const listMissing = answer.status === 404 || answer.status === 405;
      if (!listMissing || !target.model) return failed(target, { kind: 'http', status: answer.status, body: answer.body }, latency());
    }
    if (!target.model) return { ok: false, status: null, latencyMs: latency(), message: 'No model to test with: give one (the tier model of the profile or template).' };
    const answer = await send(messageRequest(target, target.model), options);
    if (answer.status < 300) {
      return { ok: true, status: answer.status, latencyMs: latency(), message: `Connected: ${target.model} answered.` };
    }
    return failed(target, { kind: 'http', status: answer.status, body: answer.body }, latency());
  } catch (err) {
    return failed(target, describeFailure(err, options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS), latency());
  }
}

function failed(target: ConnectionTarget, failure: Failure, latencyMs: number): ConnectionResult {
  return { ok: false, status: failure.kind === 'http' ? failure.status : null, latencyMs, message: adviceFor(failure, target) };
}

interface Request {
  url: string;
  init: RequestInit;
}

function headers(target: ConnectionTarget): Record<string, string> {
  const out: Record<string, string> = { accept: 'application/json' };
  if (target.format === 'anthropic') out['anthropic-version'] = '2023-06-01';
  if (target.apiKey) {
    if (target.auth === 'x-api-key') out['x-api-key'] = target.apiKey;
    else out.authorization = `Bearer ${target.apiKey}`;
  }
  return out;
}

export function listUrl(target: Pick<ConnectionTarget, 'format' | 'baseUrl'>): string {
  return join(target.baseUrl, target.format === 'anthropic' ? '/v1/models' : '/models');
}

export function messageUrl(target: Pick<ConnectionTarget, 'format' | 'baseUrl'>): string {
  return join(target.baseUrl, target.format === 'anthropic' ? '/v1/messages' : '/chat/completions');
}

function listRequest(target: ConnectionTarget): Request {
  return { url: listUrl(target), init: { method: 'GET', headers: headers(target) } };
}

function messageRequest(target: ConnectionTarget, model: string): Request {
  const body = { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] };
  return {
    url: messageUrl(target),
    init: { method: 'POST', headers: { ...headers(target), 'content-type': 'application/json' }, body: JSON.stringify(body) },
  };
}

async function send(request: Request, options: ConnectionOptions): Promise<{ status: number; body: string }> {
  const url = overrideOrigin(request.url, options.overrides);
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS);
  const res = await fetch(url, { ...request.init, signal, redirect: 'manual' });
  return { status: res.status, body: await boundedText(res) };
}

async function boundedText(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= BODY_LIMIT) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `data[].id` of an OpenAI or Anthropic models list, sorted; [] for anything else. */
export function modelIds(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    const data = (parsed as { data?: unknown }).data;
    if (!Array.isArray(data)) return [];
    const ids = data.map((m: unknown) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined));
    return [...new Set(ids.filter((id): id is string => typeof id === 'string'))].sort();
  } catch {
    return []; // not JSON: a list the test cannot read, still an answer
  }
}

function listedMessage(models: string[]): string {
  return models.length === 0 ? 'Connected: the endpoint answered (it listed no models).' : `Connected: ${models.length} model${models.length === 1 ? '' : 's'} listed.`;
}

function join(base: string, suffix: string): string {
  return base.replace(/\/+$/, '') + suffix;
}
