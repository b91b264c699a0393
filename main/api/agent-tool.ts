import { Router } from 'express';
import { mapConfigAreaErrors } from './area-config-errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  agentSettingsPutBody,
  agentSettingsPutError,
  agentSettingsPutResponse,
  agentSettingsResponse,
  diagnosticsResponse,
} from './schemas/agent-tool.js';

/** The agent tool's binary and settings file (spec 2.5 and 4.3, decisions §3). */
export function createAgentToolRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'agent-tool');
  const agentTool = services.agentTool;

  route({
    method: 'get',
    path: '/api/agent-tool/diagnostics',
    summary: 'Binary detection (path, version) and settings file status, with warnings',
    response: diagnosticsResponse,
    handler: () => agentTool.diagnostics(),
  });

  route({
    method: 'get',
    path: '/api/agent-tool/settings',
    summary: 'Raw and parsed settings file with diagnostics',
    response: agentSettingsResponse,
    handler: () => agentTool.readSettings(),
  });

  route({
    method: 'put',
    path: '/api/agent-tool/settings',
    summary: 'Write the settings file: JSON object check, optimistic lock, backup, atomic write',
    body: agentSettingsPutBody,
    bodyError: agentSettingsPutError,
    response: agentSettingsPutResponse,
    handler: ({ body }) => agentTool.writeSettings(body.content, body.expectedMtime),
  });

  router.use(mapConfigAreaErrors);
  return router;
}
