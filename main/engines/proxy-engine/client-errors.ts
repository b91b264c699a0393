import type http from 'node:http';

/** The wire format a client speaks, judged from the route it called. */
export type ClientFormat = 'anthropic' | 'openai';

export function clientFormatFor(pathname: string): ClientFormat {
  return /\/messages(\/|$)/.test(pathname) ? 'anthropic' : 'openai';
}

const anthropicTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

const openaiTypes: Record<number, [type: string, code: string]> = {
  401: ['authentication_error', 'invalid_api_key'],
  403: ['permission_error', 'insufficient_quota'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['rate_limit_error', 'rate_limit_exceeded'],
};

/** An error body in the client's own format (Anthropic `{type:"error",...}` or OpenAI `{error:{...}}`). */
export function clientErrorBody(format: ClientFormat, status: number, message: string): Record<string, unknown> {
  if (format === 'anthropic') {
    const type = anthropicTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message } };
  }
  const [type, code] = openaiTypes[status] ?? (status >= 500 ? ['server_error', 'internal_server_error'] : ['invalid_request_error', null]);
  return { error: { message, type, code } };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendClientError(res: http.ServerResponse, format: ClientFormat, status: number, message: string): void {
  sendJson(res, status, clientErrorBody(format, status, message));
}
