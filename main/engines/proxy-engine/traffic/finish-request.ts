import type { EngineContext } from '../context.js';
import type { AttemptRecord, RequestRecord } from './error-log.js';
import type { RequestLogEntry, RequestOutcome } from './request-entry.js';
import { trafficState } from './state.js';

/**
 * The end of every client request the engine answers (traffic routes, and the 401s and 404s the
 * server refuses): the error log when it failed, then one request-log entry. A client that hung
 * up is not a failure of ours; its error log is written only when an upstream attempt failed too.
 */
export function finishRequest(ctx: EngineContext, record: RequestRecord, pathname: string, clientGone: boolean): void {
  const state = trafficState(ctx);
  if (clientGone && record.status === 0) record.finish(499, '<client closed the connection>');
  let errorLog: string | null = null;
  if ((clientGone ? record.attempts.some(attemptFailed) : record.failed) && state.errorLogs.accepts()) {
    errorLog = state.errorLogs.nameFor(pathname, record.startedAt);
    void state.errorLogs.write(record, pathname, errorLog);
  }
  const outcome = outcomeOf(record, clientGone);
  const entry: RequestLogEntry = {
    id: state.requestLog.nextId(),
    time: record.startedAt,
    format: record.format,
    method: cut(record.req.method ?? 'GET', SHORT),
    path: cut(pathname, SHORT),
    modelRequested: cutOrNull(record.modelRequested, SHORT),
    modelSent: cutOrNull(record.modelSent, SHORT),
    upstream: record.upstream,
    keyIndex: record.keyIndex,
    ...(record.account !== null ? { account: cut(record.account, SHORT) } : {}),
    ...(record.via !== null ? { via: record.via } : {}),
    status: record.streamFailedStatus ?? record.status,
    outcome,
    latencyMs: Math.max(0, ctx.now() - record.startedAt),
    ttfbMs: record.firstByteAt === null ? null : Math.max(0, record.firstByteAt - record.startedAt),
    tokens: record.tokens,
    session: cutOrNull(record.session, SHORT),
    error: cutOrNull(record.error ?? (outcome === 'aborted' ? 'The client closed the connection' : null), ERROR_TEXT),
    errorLog,
  };
  if (record.refusedNumbers > 0) state.requestLog.countRefused(record.refusedNumbers);
  state.requestLog.add(entry);
}

/**
 * What a client or an upstream controls (a path, a model name, a session id, an upstream's error
 * message of up to a MiB) is cut before it enters the 2 000-entry ring, the JSONL file and the
 * event stream: the error log keeps the whole text.
 */
const SHORT = 256;
const ERROR_TEXT = 2048;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function cutOrNull(text: string | null, max: number): string | null {
  return text === null ? null : cut(text, max);
}

function outcomeOf(record: RequestRecord, clientGone: boolean): RequestOutcome {
  if (record.streamFailedStatus !== null) return 'stream_error';
  if (clientGone) return 'aborted';
  return record.status >= 400 ? 'error' : 'ok';
}

function attemptFailed(a: AttemptRecord): boolean {
  return a.error !== undefined || (a.status ?? 0) >= 400;
}
