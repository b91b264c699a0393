import type http from 'node:http';
import { answerClientErrorsAsJson, type ClientErrorAnswer } from '../infra/client-error.js';
import { E } from './error-texts.js';

/** The `error` text of each status Node's parser answers with. */
function errorText(status: number): string {
  if (status === 431) return E.headersTooLarge;
  if (status === 408) return E.requestTimeout;
  if (status === 413) return E.bodyTooLarge;
  return E.badRequest;
}

/**
 * Requests Node refuses before any handler (431, 400, 408) answer `{error, message}` like every
 * other error of the API, instead of Node's empty body. Loads nothing beyond node:http, so it is
 * installed before the port listens.
 */
export function answerParserErrors(server: http.Server): void {
  answerClientErrorsAsJson(server, (answer: ClientErrorAnswer) => ({ error: errorText(answer.status), message: answer.message }));
}
