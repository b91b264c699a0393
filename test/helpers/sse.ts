import http from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseClient {
  status: number;
  contentType: string | null;
  headers: http.IncomingHttpHeaders;
  events: EventSourceMessage[];
  comments: string[];
  retry: number | undefined;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Resolves once `predicate` holds for what arrived so far; rejects after `timeoutMs`. */
  waitFor(predicate: (c: SseClient) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * A real HTTP client of an event stream (node:http + eventsource-parser). Not fetch: undici opens a
 * spare connection after an abort, which would make every server shutdown wait for its force-close.
 */
export async function openSse(url: string): Promise<SseClient> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(url, { headers: { accept: 'text/event-stream' }, agent: false }, resolve).once('error', reject);
  });
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  const client: SseClient = {
    status: res.statusCode ?? 0,
    contentType: res.headers['content-type'] ?? null,
    headers: res.headers,
    events: [],
    comments: [],
    retry: undefined,
    ended: Promise.resolve(),
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(client)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`SSE condition not met in ${timeoutMs} ms; events: ${JSON.stringify(client.events)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => res.destroy(),
  };
  const parser = createParser({
    onEvent: (e) => {
      client.events.push(e);
      notify();
    },
    onComment: (c) => {
      client.comments.push(c.trim());
      notify();
    },
    onRetry: (r) => {
      client.retry = r;
      notify();
    },
  });
  client.ended = (async () => {
    res.setEncoding('utf8');
    try {
      for await (const chunk of res) parser.feed(chunk as string);
    } catch {
      // Destroyed by close() or cut by the server: both simply end the stream for the test.
    }
  })();
  return client;
}
