import type { ServiceContext } from './context.js';

/**
 * Every domain service of the main process. Each area adds its service here and builds it
 * in `createServices`; routers receive this object, never module singletons.
 */
export interface Services {
  ctx: ServiceContext;
}

export async function createServices(ctx: ServiceContext): Promise<Services> {
  return { ctx };
}

/** Work done once the API listens: adopt a running proxy, auto-start the bridge, load caches. */
export async function startServices(_services: Services): Promise<void> {}

/** Stops what the services started (children per their quit policy, timers, watchers). */
export async function stopServices(_services: Services): Promise<void> {}
