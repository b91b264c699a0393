import { Router } from 'express';
import { mapProxyErrors } from './proxy-errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  authFileDownloadQuery,
  authFilesResponse,
  errorLogsResponse,
  modelListResponse,
  proxyConfigPutBody,
  proxyConfigPutError,
  proxyConfigPutResponse,
  proxyRestartResponse,
  proxyStartResponse,
  proxyStatusResponse,
  proxyStopResponse,
  quotaResponse,
  updateCheckQuery,
  updateCheckResponse,
} from './schemas/proxy.js';
import { E } from './error-texts.js';

/** Proxy control (spec 4.4, decisions §4). */
export function createProxyRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'proxy');
  const proxy = services.proxy;

  route({
    method: 'get',
    path: '/api/proxy/proxy-status',
    summary: 'Whether the proxy runs; port, pid, active sessions and start time when it does',
    response: proxyStatusResponse,
    handler: () => proxy.control.status(),
  });

  route({
    method: 'post',
    path: '/api/proxy/proxy-start',
    summary: 'Start the proxy and wait until it answers its health check (10 s at most)',
    response: proxyStartResponse,
    handler: () => proxy.control.start(),
  });

  route({
    method: 'post',
    path: '/api/proxy/proxy-stop',
    summary: 'Stop the proxy: SIGTERM to its process tree, SIGKILL after 5 s',
    response: proxyStopResponse,
    handler: () => proxy.control.stop(),
  });

  route({
    method: 'post',
    path: '/api/proxy/proxy-restart',
    summary: 'Stop the proxy if it runs, then start it with the current tokens and config; profiles follow a changed key',
    response: proxyRestartResponse,
    handler: () => proxy.control.restart(),
  });

  route({
    method: 'get',
    path: '/api/proxy/update-check',
    summary: 'Latest release from proxy.update_feed_url (1 h cache, ?force=true skips it); says when the feed last answered and why not now; never 5xx',
    query: updateCheckQuery,
    response: updateCheckResponse,
    handler: async ({ query }) => {
      const force = query.force === 'true';
      const [engine, cliproxy] = await Promise.all([proxy.updates.check({ force }), services.cliproxy.updateInfo({ force }).catch(() => null)]);
      return cliproxy ? { ...engine, cliproxy } : engine;
    },
  });

  route({
    method: 'get',
    path: '/api/proxy/models',
    summary: "The running proxy's /v1/models, grouped by owned_by",
    response: modelListResponse,
    handler: () => proxy.models(),
  });

  route({
    method: 'get',
    path: '/api/proxy/error-logs',
    summary: 'proxy/logs/error-*.log, newest first, with the status sent and the model asked for',
    response: errorLogsResponse,
    handler: async () => ({ files: await proxy.errorLogs.list() }),
  });

  route({
    method: 'get',
    path: '/api/proxy/error-logs/:name',
    summary: 'One error log as plain text',
    responseKind: 'text',
    handler: async ({ params, res }) => {
      const text = await proxy.errorLogs.read(params.name ?? '');
      res.type('text/plain; charset=utf-8').set('X-Content-Type-Options', 'nosniff').send(text);
    },
  });

  route({
    method: 'get',
    path: '/api/proxy/config.yaml',
    summary: 'proxy/config.yaml as YAML text; its mtime in the X-File-Mtime header',
    responseKind: 'yaml',
    // The file holds the proxy's API key and management secret in the clear.
    noStore: true,
    handler: async ({ res }) => {
      const file = await proxy.configFile.read();
      res.type('application/yaml; charset=utf-8').set({ 'X-File-Mtime': String(file.mtime) }).send(file.content);
    },
  });

  route({
    method: 'put',
    path: '/api/proxy/config.yaml',
    summary: 'Replace proxy/config.yaml: YAML and schema check, optional expectedMtime, backup, atomic write',
    body: proxyConfigPutBody,
    bodyError: proxyConfigPutError,
    response: proxyConfigPutResponse,
    handler: ({ body }) => proxy.configFile.write(body.content, body.expectedMtime),
  });

  route({
    method: 'get',
    path: '/api/proxy/auth-files',
    summary: 'Regular *.json files of proxy/auth/',
    response: authFilesResponse,
    handler: () => proxy.authFiles.list(),
  });

  route({
    method: 'get',
    path: '/api/proxy/auth-files/download',
    summary: 'One auth file as an octet-stream download (no-store)',
    query: authFileDownloadQuery,
    queryError: E.missingName,
    responseKind: 'octet-stream',
    noStore: true,
    handler: async ({ query, res }) => {
      const file = await proxy.authFiles.read(query.name);
      res
        .type('application/octet-stream')
        .set({ 'Content-Disposition': attachment(file.name), 'X-Content-Type-Options': 'nosniff' })
        .send(file.content);
    },
  });

  route({
    method: 'get',
    path: '/api/proxy/quota/:provider/:accountId',
    summary: 'Quota of one provider account, normalised (2-minute cache, 120 requests/minute per provider)',
    response: quotaResponse,
    handler: ({ params }) => proxy.quota.get(params.provider ?? '', params.accountId ?? ''),
  });

  router.use(mapProxyErrors);
  return router;
}

/** A Content-Disposition that survives any file name: ASCII fallback plus the RFC 5987 form. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
