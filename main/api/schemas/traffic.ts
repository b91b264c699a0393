import { z } from 'zod';

/** Shapes of the proxy request log (issue 19, contract-19-20 "Owned by t19"). */
const tokens = z.object({ input: z.int(), output: z.int(), cacheRead: z.int(), cacheWrite: z.int() });

export const requestEntry = z.object({
  id: z.string(),
  time: z.int(),
  format: z.enum(['anthropic', 'openai']),
  method: z.string(),
  path: z.string(),
  modelRequested: z.string().nullable(),
  modelSent: z.string().nullable(),
  upstream: z.string().nullable(),
  keyIndex: z.int().nullable(),
  account: z.string().nullable().optional(),
  /** `cliproxy`: served through the managed CLIProxyAPI (agy, kiro, gemini), which chose the account. */
  via: z.literal('cliproxy').optional(),
  status: z.int(),
  outcome: z.enum(['ok', 'error', 'stream_error', 'aborted']),
  latencyMs: z.number(),
  ttfbMs: z.number().nullable(),
  tokens: tokens.nullable(),
  costUSD: z.number().nullable(),
  session: z.string().nullable(),
  error: z.string().nullable(),
  errorLog: z.string().nullable(),
});

/** Documented here; read by the pure filter parser so the engine and this API agree on every rule. */
export const requestLogQuery = z.object({
  status: z.string().optional().describe('ok | error | a 3-digit code | 4xx | 5xx'),
  model: z.string().optional().describe('the model asked for or sent'),
  upstream: z.string().optional(),
  since: z.string().optional().describe('ms since the epoch or ISO 8601'),
  limit: z.string().optional().describe('1-1000, default 100'),
});

/** `skippedLines`: lines of the history on disk that were not an entry (skipped, counted; 0 from the running engine). */
export const requestLogResponse = z.object({ requests: z.array(requestEntry), total: z.int(), skippedLines: z.int() });

export const requestStatsResponse = z.object({
  perMinute: z.array(z.object({ minute: z.int(), requests: z.int(), errors: z.int() })),
  requestsPerMinute: z.number(),
  errorRate: z.number().nullable(),
  lastError: requestEntry.nullable(),
  /** Numbers in upstream usage that were not token counts (1e308, -5, 2.5, 2^60), refused since the engine started; null while it is stopped. */
  refusedNumbers: z.int().nullable(),
  skippedLines: z.int(),
});
