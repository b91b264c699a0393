import http from 'node:http';
import { AccountsError } from './errors.js';

export interface CallbackOutcome {
  ok: boolean;
  /** Status of the page the browser gets. */
  status: number;
  title: string;
  message: string;
}

export interface CallbackListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The loopback listener of one authorization-code sign-in: 127.0.0.1 only, one path, alive only
 * while the sign-in waits. Every request on the path goes to `onCallback`, which decides (state,
 * replay); the browser gets a small page saying what happened. Anything else is a 404 page.
 */
export async function listenForCallback(port: number, callbackPath: string, onCallback: (params: URLSearchParams) => Promise<CallbackOutcome>): Promise<CallbackListener> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = (o: CallbackOutcome) => {
      res.writeHead(o.status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
      res.end(page(o));
    };
    if (req.method !== 'GET' || url.pathname !== callbackPath) {
      answer({ ok: false, status: 404, title: 'Not found', message: 'This address only receives a sign-in callback.' });
      return;
    }
    onCallback(url.searchParams).then(answer, () => answer({ ok: false, status: 500, title: 'Sign-in failed', message: 'Switchboard could not finish the sign-in; see the app.' }));
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new AccountsError('callback-port-in-use', `127.0.0.1:${port} is in use (another sign-in, or the provider's own CLI, is waiting there); close it or sign in with method "paste"`)
          : err,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A page still being written finishes first; nothing else keeps the port.
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}

function page(o: CallbackOutcome): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Switchboard: ${esc(o.title)}</title>
<style>body{font:16px system-ui,sans-serif;margin:15vh auto;max-width:32rem;padding:0 1rem;color:#222}h1{font-size:1.4rem;color:${o.ok ? '#1a7f37' : '#b42318'}}</style></head>
<body><h1>${esc(o.title)}</h1><p>${esc(o.message)}</p></body></html>`;
}
