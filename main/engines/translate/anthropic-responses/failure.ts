/**
 * The ChatGPT backend reports failures inside a 200 stream (`response.failed`, `error`) and as
 * HTTP errors whose body carries `error.type`/`code`. Both come to the client as the HTTP status
 * that tells it what to do: 429 waits or switches account, 400 is the request's fault, 401 means the
 * sign-in is gone, 5xx retries.
 */
export interface ResponsesFailure {
  status: number;
  message: string;
  /** Seconds until the account's quota resets, when the backend said. */
  resetsInSeconds?: number;
}

const STATUS_BY_CODE: Record<string, number> = {
  usage_limit_reached: 429,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  usage_not_included: 403,
  context_length_exceeded: 400,
  invalid_prompt: 400,
  invalid_request_error: 400,
  invalid_api_key: 401,
  token_expired: 401,
  server_is_overloaded: 529,
  server_error: 500,
};

/** `{error: {...}}`, `{response: {error}}` or the bare error object of a failure event or body. */
export function responsesFailure(payload: unknown, fallbackStatus = 500): ResponsesFailure {
  const error = errorObject(payload);
  const code = stringField(error, 'code') ?? stringField(error, 'type');
  const status = (code === undefined ? undefined : STATUS_BY_CODE[code]) ?? fallbackStatus;
  let message = stringField(error, 'message') ?? (code ? `ChatGPT backend failed: ${code}` : 'ChatGPT backend failed without a reason');
  // Claude Code compacts the conversation when an invalid-request error says the prompt is too long.
  if (code === 'context_length_exceeded' && !/prompt is too long/i.test(message)) message = `prompt is too long: ${message}`;
  const resets = resetSeconds(error);
  return resets === undefined ? { status, message } : { status, message, resetsInSeconds: resets };
}

function errorObject(payload: unknown): Record<string, unknown> | undefined {
  if (!isObject(payload)) return undefined;
  if (isObject(payload.error)) return payload.error;
  if (isObject(payload.response) && isObject(payload.response.error)) return payload.response.error;
  return payload;
}

/** `resets_in_seconds`, or `resets_at` (unix seconds) turned into seconds from now. */
function resetSeconds(error: Record<string, unknown> | undefined, nowMs = Date.now()): number | undefined {
  const inSeconds = error?.resets_in_seconds;
  if (typeof inSeconds === 'number' && Number.isFinite(inSeconds) && inSeconds >= 0) return Math.ceil(inSeconds);
  const at = error?.resets_at;
  if (typeof at === 'number' && Number.isFinite(at) && at > 0) return Math.max(0, Math.ceil(at - nowMs / 1000));
  return undefined;
}

function stringField(o: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = o?.[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
