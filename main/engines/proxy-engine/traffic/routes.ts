/** What a client route asks for, and the upstream it pins (for `/api/provider/<name>/...`). */
export type Endpoint = 'messages' | 'count_tokens' | 'chat' | 'models';

export interface TrafficRoute {
  endpoint: Endpoint;
  /** The upstream name from `/api/provider/<name>/...`. */
  pinned?: string;
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

/** Matches POST /v1/messages, /v1/messages/count_tokens, /v1/chat/completions, and the provider aliases. */
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
  const endpoint = endpoints[rest.endsWith('/') ? rest.slice(0, -1) : rest];
  if (!endpoint) return undefined;
  if (endpoint === 'models' ? method !== 'GET' || pinned === undefined : method !== 'POST' || !POSTS.has(endpoint)) return undefined;
  if (endpoint === 'chat' && rest.startsWith('/chat') && pinned === undefined) return undefined;
  return pinned === undefined ? { endpoint } : { endpoint, pinned };
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
