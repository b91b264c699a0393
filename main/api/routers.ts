import type { Router } from 'express';
import type { Logger } from '../infra/logger.js';
import type { Services } from '../services/index.js';
import type { HotAnswers } from './hot-answers.js';
import type { RouteRegistry } from './route.js';
import { createMetaRouter } from './meta.js';
import { createEventsRouter } from './events.js';
import { createTokensRouter } from './tokens.js';
import { createSettingsRouter } from './settings.js';
import { createPresetsRouter } from './presets.js';
import { createSharedRouter } from './shared.js';
import { createAgentToolRouter } from './agent-tool.js';
import { createAppConfigRouter } from './app-config.js';
import { createBridgeRouter } from './bridge.js';
import { createUsageRouter } from './usage.js';
import { createProxyRouter } from './proxy.js';
import { createProfilesRouter } from './profiles.js';
import { createClaudeCodeRouter } from './claude-code.js';
import { createTrafficRouter } from './traffic.js';
import { createAccountsRouter } from './accounts.js';
import { createProvidersRouter } from './providers.js';
import { createUpstreamsRouter } from './upstreams.js';
import { createCliproxyRouter } from './cliproxy.js';

export interface RouterDeps {
  services: Services;
  registry: RouteRegistry;
  logger: Logger;
  /** Where read answers that stay valid are remembered; absent in apps built without one. */
  hot?: HotAnswers;
}

/**
 * One router per area, mounted in this order. Literal routes that could be shadowed by a
 * parameter route of another area come first (the token routes before `/api/settings/:profile`).
 */
export const areaRouters: Array<(deps: RouterDeps) => Router> = [createMetaRouter, (deps) => createEventsRouter(deps), createTokensRouter, createProfilesRouter, createProvidersRouter, createClaudeCodeRouter, createSettingsRouter, createPresetsRouter, createSharedRouter, createAgentToolRouter, createAppConfigRouter, createBridgeRouter, createUsageRouter, createUpstreamsRouter, createCliproxyRouter, createProxyRouter, createTrafficRouter, createAccountsRouter];
