import { z } from 'zod';
import { errorCodes } from '../errors.ts';
import type { AnyRoute } from './route.ts';

export interface RouteGroup {
  /** Prefix the group's paths are served under ('' for root paths, '/api/v1' for REST). */
  prefix: string;
  routes: readonly AnyRoute[];
}

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  delete out.$schema;
  return out;
}

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const errorResponse = {
  description: 'Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

/** The OpenAPI 3.1 document of every mounted route, generated from the same zod schemas. */
export function buildOpenApiDocument(groups: readonly RouteGroup[], version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { prefix, routes } of groups) {
    for (const route of routes) {
      const path = `${prefix}${route.path}`;
      const status = typeof route.status === 'number' ? String(route.status) : '200';
      const success =
        status === '204'
          ? { description: 'No content' }
          : {
              description: 'Success',
              content: {
                [route.contentType ?? 'application/json']: {
                  schema: jsonSchema(route.response, 'output'),
                },
              },
            };
      const responses: Record<string, unknown> = { [status]: success, '422': errorResponse };
      if (typeof route.status === 'function') responses['503'] = success;
      if (prefix.startsWith('/api')) responses['401'] = errorResponse;
      if (route.path.includes('{')) responses['404'] = errorResponse;
      paths[path] ??= {};
      paths[path][route.method] = {
        summary: route.summary,
        operationId: `${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        tags: route.tags ?? [],
        parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
        ...(route.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
              },
            }
          : {}),
        responses,
        ...(prefix.startsWith('/api') ? { security: [{ apiKey: [] }, {}] } : {}),
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hearth gateway',
      version,
      description:
        'REST interface of the Hearth gateway. Errors are `{"detail": "..."}`; codes: ' +
        Object.entries(errorCodes)
          .map(([code, { status }]) => `${code} (${status})`)
          .join(', '),
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(z.object({ detail: z.string() }), 'output') },
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  };
}
