import { Router } from 'express';
import { SHARED_TYPES } from '../services/shared/types.js';
import { mapConfigAreaErrors } from './area-config-errors.js';
import { E } from './error-texts.js';
import { ApiError } from './errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  sharedContentQuery,
  sharedContentResponse,
  sharedLinkResponse,
  sharedListResponse,
  sharedSummaryResponse,
} from './schemas/shared.js';

/** Shared commands, skills and agents (spec 2.4 and 4.3, decisions §3). */
export function createSharedRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'shared');
  const shared = services.shared;

  for (const type of SHARED_TYPES) {
    route({
      method: 'get',
      path: `/api/shared/${type}`,
      summary: `Shared ${type} with descriptions, sorted by name`,
      response: sharedListResponse,
      handler: async () => ({ items: await shared.list(type) }),
    });
  }

  route({
    method: 'get',
    path: '/api/shared/content',
    summary: 'Full markdown of one shared item; the path must stay inside its type directory',
    query: sharedContentQuery,
    response: sharedContentResponse,
    handler: ({ query }) => shared.content(query.type, query.path),
  });

  route({
    method: 'get',
    path: '/api/shared/summary',
    summary: 'Item counts and the state of the links into the agent data dir',
    response: sharedSummaryResponse,
    handler: () => shared.summary(),
  });

  route({
    method: 'post',
    path: '/api/shared/link',
    summary: 'Link {config_dir}/shared/{commands,skills,agents} into the agent data dir (never deletes user files)',
    response: sharedLinkResponse,
    handler: async () => {
      const { ok, outcomes, summary } = await shared.link();
      if (!ok) {
        const reasons = outcomes.flatMap((o) => (o.reason ? [o.reason] : []));
        throw new ApiError(409, E.sharedLinkFailed, reasons.join(' '), { ...summary, links: outcomes });
      }
      return { ...summary, links: outcomes };
    },
  });

  router.use(mapConfigAreaErrors);
  return router;
}
