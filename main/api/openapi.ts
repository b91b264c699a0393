import { z } from 'zod';
import type { RouteInfo, RouteRegistry } from './route.js';
import { appVersion } from '../infra/app-version.js';

const contentTypes: Record<RouteInfo['responseKind'], string> = {
  json: 'application/json',
  text: 'text/plain',
  yaml: 'application/yaml',
  'octet-stream': 'application/octet-stream',
  'event-stream': 'text/event-stream',
  html: 'text/html',
};

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, message: { type: 'string' } },
};

/** OpenAPI 3.1 document built from what the routers registered. */
export function buildOpenApi(registry: RouteRegistry): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of registry.routes) {
    const key = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    paths[key] ??= {};
    paths[key][route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Switchboard management API', version: appVersion() },
    servers: [{ url: 'http://127.0.0.1:3000' }],
    paths,
    components: { schemas: { Error: errorSchema } },
  };
}

function operation(route: RouteInfo): Record<string, unknown> {
  const params = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const op: Record<string, unknown> = {
    tags: [route.tag],
    summary: route.summary,
    parameters: [...params, ...queryParameters(route.query)],
    responses: {
      [String(route.successStatus)]: {
        description: 'Success',
        content: { [contentTypes[route.responseKind]]: { schema: route.response ? jsonSchema(route.response) : {} } },
      },
      default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  };
  if (route.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.body) } } };
  }
  return op;
}

function queryParameters(query: z.ZodType | undefined): unknown[] {
  if (!query) return [];
  const schema = jsonSchema(query) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: s,
  }));
}

function jsonSchema(schema: z.ZodType): unknown {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}
