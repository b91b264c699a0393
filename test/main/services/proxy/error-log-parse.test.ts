import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type http from 'node:http';
import { formatErrorLog } from '../../../../main/engines/proxy-engine/traffic/error-log.js';
import { parseErrorLog } from '../../../../main/services/proxy/error-log-parse.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/error-logs');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

describe('parseErrorLog', () => {
  it('takes the status of the last RESPONSE section, not of an upstream attempt (real layout)', () => {
    expect(parseErrorLog(fixture('real-two-attempts.log'))).toEqual({ statusCode: 529, model: 'claude-sonnet-4-5-20250929' });
  });

  it('reports 200 for a request that failed on one account and succeeded on the next', () => {
    expect(parseErrorLog(fixture('real-failover-success.log'))).toEqual({ statusCode: 200, model: 'gemini-3-pro-preview' });
  });

  it("reads the spec's simplified layout", () => {
    expect(parseErrorLog(fixture('simplified.log'))).toEqual({ statusCode: 404, model: 'gpt-4o' });
  });

  it('matches markers case-insensitively and with CRLF line ends', () => {
    const text = fixture('simplified.log').replace('=== Request ===', '=== REQUEST ===').replace('=== Response ===', '===response===');
    expect(parseErrorLog(text.replace(/\n/g, '\r\n'))).toEqual({ statusCode: 404, model: 'gpt-4o' });
  });

  it('keeps finding the status and model around very long bodies', () => {
    const long = 'x'.repeat(3 * 1024 * 1024);
    const text = [
      '=== REQUEST INFO ===',
      'URL: /v1/messages',
      '',
      '=== REQUEST BODY ===',
      JSON.stringify({ model: 'claude-opus-4-1', messages: [{ role: 'user', content: long }] }),
      '',
      '=== API RESPONSE 1 ===',
      'Status: 500',
      'Body:',
      long,
      '',
      '=== RESPONSE ===',
      'Status: 502',
      'Content-Type: text/plain',
      '',
      `${long}\nStatus: 200\n`,
    ].join('\n');
    expect(parseErrorLog(text)).toEqual({ statusCode: 502, model: 'claude-opus-4-1' });
  });

  it('finds the model in a request body cut short (truncated JSON)', () => {
    const text = '=== REQUEST BODY ===\n{"stream":true,"model":"gpt-5\\u002dcodex","messages":[{"role":"us\n\n=== RESPONSE ===\nStatus: 408\n';
    expect(parseErrorLog(text)).toEqual({ statusCode: 408, model: 'gpt-5-codex' });
  });

  it('answers null for what the log does not say', () => {
    expect(parseErrorLog('')).toEqual({ statusCode: null, model: null });
    // A stream whose response section carries no Status line; a body that is not JSON.
    expect(parseErrorLog('=== Request ===\nPOST /v1/messages\n\nnot json\n\n=== Response ===\n\nevent: error\n')).toEqual({
      statusCode: null,
      model: null,
    });
    // An upstream attempt's status never stands in for the client's.
    expect(parseErrorLog('=== API RESPONSE 1 ===\nStatus: 500\n')).toEqual({ statusCode: null, model: null });
  });

  it('reads the logs the built-in engine writes, several attempts and a cut-off body included', () => {
    const req = { method: 'POST', url: '/v1/messages?beta=true', httpVersion: '1.1', headers: { 'x-api-key': 'sk-sb-secret', 'content-type': 'application/json' } };
    const body = Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'y'.repeat(2 * 1024 * 1024) }] }));
    const attempt = (status: number) => ({ timestamp: 0, upstream: 'openai', keyLabel: 'key 1 of 2', url: 'http://up/v1/chat/completions', headers: {}, body, status, responseBody: 'Status: 201' });
    const text = formatErrorLog({
      req: req as unknown as http.IncomingMessage,
      startedAt: 0,
      body,
      attempts: [attempt(429), attempt(500)],
      status: 502,
      responseBody: '{"type":"error"}',
    });
    expect(parseErrorLog(text)).toEqual({ statusCode: 502, model: 'claude-sonnet-4-5' });
  });
});
