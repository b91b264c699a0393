import { describe, expect, it } from 'vitest';
import { matchTrafficRoute } from '../../../../../main/engines/proxy-engine/traffic/routes.js';

describe('matchTrafficRoute', () => {
  it.each([
    ['POST', '/v1/messages', { endpoint: 'messages' }],
    ['POST', '/v1/messages/count_tokens', { endpoint: 'count_tokens' }],
    ['POST', '/v1/chat/completions', { endpoint: 'chat' }],
    ['POST', '/api/provider/an/v1/messages', { endpoint: 'messages', pinned: 'an' }],
    ['POST', '/api/provider/oa/v1/chat/completions', { endpoint: 'chat', pinned: 'oa' }],
    ['POST', '/api/provider/oa/chat/completions', { endpoint: 'chat', pinned: 'oa' }],
    ['POST', '/api/provider/my%20proxy/v1/messages', { endpoint: 'messages', pinned: 'my proxy' }],
    ['GET', '/api/provider/oa/v1/models', { endpoint: 'models', pinned: 'oa' }],
    ['GET', '/v1/models', { endpoint: 'models' }],
    ['GET', '/v1/models/gpt-4o', { endpoint: 'model', modelId: 'gpt-4o' }],
    ['GET', '/v1/models/openrouter/auto', { endpoint: 'model', modelId: 'openrouter/auto' }],
    ['GET', '/api/provider/an/v1/models/claude-sonnet-4-5', { endpoint: 'model', pinned: 'an', modelId: 'claude-sonnet-4-5' }],
  ])('%s %s → %j', (method, path, expected) => {
    expect(matchTrafficRoute(method, path)).toEqual(expected);
  });

  it.each([
    ['GET', '/v1/messages'],
    ['POST', '/v1/models'],
    ['DELETE', '/v1/models/gpt-4o'],
    ['GET', '/v1/models/%E0%A4%A'],
    ['POST', '/v1/completions'],
    ['POST', '/api/provider//v1/messages'],
    ['POST', '/api/provider/oa'],
    ['POST', '/api/provider/%E0%A4%A/v1/messages'],
  ])('%s %s is not a traffic route', (method, path) => {
    expect(matchTrafficRoute(method, path)).toBeUndefined();
  });
});
