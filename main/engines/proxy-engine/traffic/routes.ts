/** What a client route asks for, and the upstream it pins (for `/api/provider/<name>/...`). */
export type Endpoint = 'messages' | 'count_tokens' | 'chat' | 'models' | 'model';

export interface TrafficRoute {
  endpoint: Endpoint;
  /** The upstream name from `/api/provider/<name>/...`. */
  pinned?: string;
  /** `GET /v1/models/{id}`: the id, decoded. */
  modelId?: string;
}

const endpoints: Record<string, Endpoint> = {
  '/v1/messages': 'messages',
  '/v1/messages/count_tokens': 'count_tokens',
  '/v1/chat/completions': 'chat',
  // OpenAI SDKs configured with a base URL that already ends in /v1 sometimes drop it again.
  '/chat/completions': 'chat',
  '/v1/models': 'models',
};

const POSTS = new Set<Endpoint>(['messages', 'count_tokens', 'chat']);
const MODEL_PREFIX = '/v1/models/';

/**
 * Matches POST /v1/messages, /v1/messages/count_tokens, /v1/chat/completions, GET /v1/models and
 * /v1/models/{id}, and their `/api/provider/<name>/...` aliases.
 */
export function matchTrafficRoute(method: string | undefined, pathname: string): TrafficRoute | undefined {
  let rest = pathname;
  let pinned: string | undefined;
  if (pathname.startsWith('/api/provider/')) {
    const tail = pathname.slice('/api/provider/'.length);
    const slash = tail.indexOf('/');
    if (slash <= 0) return undefined;
    pinned = decodeSegment(tail.slice(0, slash));
    if (pinned === undefined) return undefined;
    rest = tail.slice(slash);
  }
  const pin = pinned === undefined ? {} : { pinned };
  if (rest.startsWith(MODEL_PREFIX) && rest.length > MODEL_PREFIX.length) {
    // Model ids may hold `/` (`openrouter/auto`, `models/gemini-2.5-pro`): the whole rest is the id.
    const modelId = decodeSegment(rest.slice(MODEL_PREFIX.length).replace(/\/$/, ''));
    return method === 'GET' && modelId ? { endpoint: 'model', ...pin, modelId } : undefined;
  }
  const endpoint = endpoints[rest.endsWith('/') ? rest.slice(0, -1) : rest];
  if (!endpoint) return undefined;
  if (endpoint === 'models' ? method !== 'GET' : method !== 'POST' || !POSTS.has(endpoint)) return undefined;
  if (endpoint === 'chat' && rest.startsWith('/chat') && pinned === undefined) return undefined;
  return { endpoint, ...pin };
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
