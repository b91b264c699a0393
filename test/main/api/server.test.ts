import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

/** A request with headers fetch() will not let us set (Host). */
function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('whole-API behaviour (decisions §1)', () => {
  it('answers an unknown /api route with a JSON 404', async () => {
    const res = await app.json('GET', '/api/nope');
    expect(res).toEqual({ status: 404, body: { error: 'Not found' } });
  });

  it('answers a wrong method on a known route with 405 and Allow', async () => {
    const res = await app.request('DELETE', '/api/openapi.json');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.json()).toEqual({ error: 'Method not allowed' });
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await rawRequest(app.port, 'GET', '/api/openapi.json', { host: `evil.example:${app.port}` });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ error: 'Forbidden host' });
  });

  it('accepts localhost and 127.0.0.1 hosts on its own port only', async () => {
    expect((await rawRequest(app.port, 'GET', '/api/openapi.json', { host: `localhost:${app.port}` })).status).toBe(200);
    expect((await rawRequest(app.port, 'GET', '/api/openapi.json', { host: `127.0.0.1:${app.port + 1}` })).status).toBe(403);
  });

  it('refuses a cross-site write from a browser', async () => {
    const res = await rawRequest(app.port, 'POST', '/api/nope', {
      host: `127.0.0.1:${app.port}`,
      origin: 'https://evil.example',
      'content-type': 'application/json',
    }, '{}');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ error: 'Cross-origin request refused' });
  });

  it('refuses a write whose Sec-Fetch-Site is cross-site even without Origin', async () => {
    const res = await rawRequest(app.port, 'PUT', '/api/nope', { host: `127.0.0.1:${app.port}`, 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
  });

  it('lets a same-origin browser write through the guards', async () => {
    const res = await rawRequest(app.port, 'POST', '/api/nope', {
      host: `127.0.0.1:${app.port}`,
      origin: `http://127.0.0.1:${app.port}`,
      'sec-fetch-site': 'same-origin',
    });
    expect(res.status).toBe(404);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app.json('POST', '/api/nope', '{"a":');
    expect(res).toEqual({ status: 400, body: { error: 'Invalid JSON in request body' } });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await app.json('POST', '/api/nope', JSON.stringify({ a: 'x'.repeat(1024 * 1024) }));
    expect(res).toEqual({ status: 413, body: { error: 'Request body too large' } });
  });

  it('sends no permissive CORS headers', async () => {
    const res = await app.request('GET', '/api/openapi.json', undefined, { origin: 'https://evil.example' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves the dashboard with a strict CSP', async () => {
    const res = await app.request('GET', '/');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});

describe('GET /api/openapi.json', () => {
  it('lists every mounted route', async () => {
    const { body } = await app.json('GET', '/api/openapi.json');
    const documented = new Set<string>();
    for (const [p, ops] of Object.entries(body.paths as Record<string, object>)) {
      for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${p}`);
    }
    const mounted = routesOf(app);
    expect(mounted.length).toBeGreaterThan(0);
    for (const r of mounted) expect(documented).toContain(r);
  });
});

/** Walks Express's own router stack, independent of our registry, to find every mounted /api route. */
function routesOf(testApp: TestApp): string[] {
  interface Layer {
    route?: { path: string; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  }
  const out: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route && typeof layer.route.path === 'string' && layer.route.path.startsWith('/api/')) {
        for (const m of Object.keys(layer.route.methods)) {
          out.push(`${m.toUpperCase()} ${layer.route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((testApp.expressApp as unknown as { router: { stack: Layer[] } }).router.stack);
  return out;
}
