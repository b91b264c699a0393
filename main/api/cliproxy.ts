import { Router } from 'express';
import { InstallError } from '../services/cliproxy/installer.js';
import { ReleaseFeedError } from '../services/cliproxy/release-feed.js';
import { E } from './error-texts.js';
import { ApiError } from './errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  cliproxyInstallBody,
  cliproxyInstallResponse,
  cliproxyPinBody,
  cliproxyPinResponse,
  cliproxyRunResponse,
  cliproxyStopResponse,
  cliproxyStatusQuery,
  cliproxyStatusResponse,
  cliproxyUninstallResponse,
} from './schemas/cliproxy.js';

/** The managed CLIProxyAPI binary (decisions §4.1): status, install/update, pin, uninstall. */
export function createCliproxyRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'cliproxy');
  const cliproxy = services.cliproxy;

  route({
    method: 'get',
    path: '/api/proxy/cliproxy',
    summary: 'Installed CLIProxyAPI binary, pin, latest release (1 h cache, ?force=true skips it), known-bad list, running state',
    query: cliproxyStatusQuery,
    response: cliproxyStatusResponse,
    handler: ({ query }) => cliproxy.status({ checkLatest: true, force: query.force === 'true' }),
  });

  route({
    method: 'post',
    path: '/api/proxy/cliproxy/install',
    summary: 'Install or update the binary (requested version, else the pin, else the latest); progress as cliproxy-install events',
    body: cliproxyInstallBody,
    bodyError: E.invalidCliproxyInstall,
    response: cliproxyInstallResponse,
    handler: async ({ body }) => {
      try {
        const done = await cliproxy.install(body);
        return { installed: true, backend: done.backend, version: done.version, previousVersion: done.previousVersion, restarted: done.restarted };
      } catch (err) {
        throw toApiError(err);
      }
    },
  });

  route({
    method: 'put',
    path: '/api/proxy/cliproxy/pin',
    summary: 'Pin a version (installs and updates stay on it) or unpin with null',
    body: cliproxyPinBody,
    bodyError: E.invalidCliproxyPin,
    response: cliproxyPinResponse,
    handler: ({ body }) => cliproxy.setPin(body.version),
  });

  route({
    method: 'post',
    path: '/api/proxy/cliproxy/start',
    summary: 'Start the installed binary on its own loopback port (no-op when running)',
    response: cliproxyRunResponse,
    handler: async () => {
      if (!(await cliproxy.status()).installed) throw new ApiError(409, E.cliproxyNotInstalled);
      try {
        const r = await cliproxy.ensureRunning();
        return { running: true, port: r.port, pid: r.pid };
      } catch (err) {
        throw new ApiError(500, E.cliproxyStartFailed, (err as Error).message);
      }
    },
  });

  route({
    method: 'post',
    path: '/api/proxy/cliproxy/stop',
    summary: 'Stop the binary',
    response: cliproxyStopResponse,
    handler: () => cliproxy.stop(),
  });

  route({
    method: 'delete',
    path: '/api/proxy/cliproxy',
    summary: 'Remove the binary; accounts in proxy/auth/ stay',
    response: cliproxyUninstallResponse,
    handler: () => cliproxy.uninstall(),
  });

  return router;
}

function toApiError(err: unknown): unknown {
  if (err instanceof InstallError) {
    if (err.kind === 'checksum') return new ApiError(502, E.checksumMismatch, err.message);
    if (err.kind === 'known-bad') return new ApiError(409, E.knownBadVersion, `${err.message}; send force: true to install it anyway`);
    if (err.kind === 'no-asset') return new ApiError(404, E.noReleaseAsset, err.message);
    return new ApiError(502, E.cliproxyDownloadFailed, err.message);
  }
  if (err instanceof ReleaseFeedError) {
    return err.kind === 'not-found' ? new ApiError(404, E.noReleaseAsset, err.message) : new ApiError(502, E.cliproxyDownloadFailed, err.message);
  }
  if (err instanceof TypeError) return new ApiError(502, E.cliproxyDownloadFailed, err.message); // fetch: network failure
  return err;
}
