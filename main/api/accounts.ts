import { Router } from 'express';
import { mapAccountsErrors } from './accounts-errors.js';
import { routeOn } from './route.js';
import type { RouterDeps } from './routers.js';
import {
  accountRemoveResponse,
  accountResponse,
  accountsListResponse,
  callbackBody,
  callbackError,
  importBody,
  priorityBody,
  priorityError,
  signInBody,
  signInError,
  signInStartResponse,
  signInStateResponse,
} from './schemas/accounts.js';

/** Subscription accounts (decisions §4.1). The sign-in routes come before the `:provider/:accountId` ones. */
export function createAccountsRouter({ services, registry }: RouterDeps): Router {
  const router = Router();
  const route = routeOn(router, registry, 'accounts');
  const accounts = services.providerAccounts;

  route({
    method: 'get',
    path: '/api/accounts',
    summary: 'Provider accounts in proxy/auth/ with status, expiry, last refresh, error and models',
    response: accountsListResponse,
    handler: () => accounts.list(),
  });

  route({
    method: 'get',
    path: '/api/accounts/sign-in/:signInId',
    summary: 'State of a sign-in: waiting, ok (with the account), error, expired, cancelled',
    response: signInStateResponse,
    handler: ({ params }) => accounts.signInStatus(params.signInId ?? ''),
  });

  route({
    method: 'delete',
    path: '/api/accounts/sign-in/:signInId',
    summary: 'Cancel a sign-in; its callback listener closes',
    response: signInStateResponse,
    handler: ({ params }) => accounts.cancelSignIn(params.signInId ?? ''),
  });

  route({
    method: 'post',
    path: '/api/accounts/sign-in/:signInId/callback',
    summary: 'The redirected URL, pasted (headless and remote machines)',
    body: callbackBody,
    bodyError: callbackError,
    response: signInStateResponse,
    handler: ({ params, body }) => accounts.signInCallback(params.signInId ?? '', body.url),
  });

  route({
    method: 'post',
    path: '/api/accounts/:provider/sign-in',
    summary: 'Start a sign-in (browser, device or paste; kiro: device or idc with startUrl and region, through the managed CLIProxyAPI); answers the URL to open and the device code. agy needs `acknowledge: true` once; gemini needs `projectId` (Code Assist Standard/Enterprise)',
    body: signInBody,
    bodyError: signInError,
    response: signInStartResponse,
    handler: ({ params, body }) => accounts.signIn(params.provider ?? '', body.method, body.acknowledge === true, { startUrl: body.startUrl, region: body.region, projectId: body.projectId }),
  });

  route({
    method: 'post',
    path: '/api/accounts/:provider/import',
    summary: "Import the account the provider's own CLI signed in (or the file at `path`)",
    body: importBody,
    response: accountResponse,
    handler: ({ params, body }) => accounts.importFrom(params.provider ?? '', body.path),
  });

  for (const action of ['pause', 'resume', 'refresh'] as const) {
    route({
      method: 'post',
      path: `/api/accounts/:provider/:accountId/${action}`,
      summary: { pause: 'Pause an account ("disabled": true in its file)', resume: 'Resume a paused account', refresh: 'Refresh the account\'s token now' }[action],
      response: accountResponse,
      handler: ({ params }) => accounts[action](params.provider ?? '', params.accountId ?? ''),
    });
  }

  route({
    method: 'put',
    path: '/api/accounts/:provider/:accountId/priority',
    summary: "Set the account's place in the drain order (`priority` in its file, higher first)",
    body: priorityBody,
    bodyError: priorityError,
    response: accountResponse,
    handler: ({ params, body }) => accounts.setPriority(params.provider ?? '', params.accountId ?? '', body.priority),
  });

  route({
    method: 'delete',
    path: '/api/accounts/:provider/:accountId',
    summary: 'Remove an account; its file is kept in backups/auth/',
    response: accountRemoveResponse,
    handler: ({ params }) => accounts.remove(params.provider ?? '', params.accountId ?? ''),
  });

  router.use(mapAccountsErrors);
  return router;
}
