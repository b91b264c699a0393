import { Router } from 'express';
import { mapBridgeErrors } from './bridge-errors.js';
import { E } from './error-texts.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  bridgeImportBody,
  bridgeImportError,
  bridgeImportResponse,
  bridgeModelsResponse,
  bridgeSection,
  bridgeSettingsPatch,
  bridgeSettingsUpdateResponse,
  bridgeStartResponse,
  bridgeStatusResponse,
  bridgeStopResponse,
} from './schemas/bridge.js';

/** The legacy editor bridge's dashboard endpoints (spec 4.6, decisions §6). */
export function createBridgeRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'bridge');
  const bridge = services.bridge;

  route({
    method: 'get',
    path: '/api/bridge/status',
    summary: 'Daemon and credential status',
    response: bridgeStatusResponse,
    handler: () => bridge.status(),
  });

  route({
    method: 'post',
    path: '/api/bridge/auth/auto-detect',
    summary: "Import the token and machine id from the editor's local SQLite store",
    response: bridgeImportResponse,
    handler: async () => {
      await bridge.autoDetect();
      return { success: true, message: 'Credentials imported from the editor' };
    },
  });

  route({
    method: 'post',
    path: '/api/bridge/auth/import',
    summary: 'Import an access token and machine id by hand',
    body: bridgeImportBody,
    bodyError: bridgeImportError,
    response: bridgeImportResponse,
    handler: async ({ body }) => {
      await bridge.importManual(body.accessToken, body.machineId);
      return { success: true, message: 'Credentials imported' };
    },
  });

  route({
    method: 'get',
    path: '/api/bridge/models',
    summary: "Models the daemon serves (the built-in list while it is stopped)",
    response: bridgeModelsResponse,
    handler: () => bridge.models(),
  });

  route({
    method: 'post',
    path: '/api/bridge/daemon/start',
    summary: 'Start the daemon; waits until /health answers (up to 30 s)',
    response: bridgeStartResponse,
    handler: async () => {
      const { pid, port } = await bridge.startDaemon();
      return { success: true, pid, port };
    },
  });

  route({
    method: 'post',
    path: '/api/bridge/daemon/stop',
    summary: 'Stop the daemon (SIGTERM, SIGKILL after 5 s)',
    response: bridgeStopResponse,
    handler: async () => ({ success: true, stopped: (await bridge.stopDaemon()).stopped }),
  });

  route({
    method: 'get',
    path: '/api/bridge/settings',
    summary: 'The cursor section of config.yaml with defaults filled',
    response: bridgeSection,
    handler: () => bridge.settings(),
  });

  route({
    method: 'put',
    path: '/api/bridge/settings',
    summary: 'Change any subset of the cursor section; comments in config.yaml are kept',
    body: bridgeSettingsPatch,
    bodyError: E.invalidBridgeSettings,
    response: bridgeSettingsUpdateResponse,
    handler: async ({ body }) => ({ success: true, cursor: await bridge.updateSettings(body) }),
  });

  router.use(mapBridgeErrors);
  return router;
}
