/**
 * `/openapi.json`: the Run API as an OpenAPI 3.1 document, generated from route-table.ts and
 * the zod schemas the handlers parse and answer with, so it cannot drift from them. OpenAPI
 * 3.1 schemas are JSON Schema 2020-12, which zod writes directly.
 */
import { z } from 'zod';
import { ProblemSchema } from '../core/schemas/run-views.js';
import { ALL_ROUTES, type ApiRoute } from './route-table.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';

type JsonSchema = Record<string, unknown>;

/** Statuses every route may answer, whatever it does. */
const COMMON_PROBLEMS = [401, 403, 429, 500] as const;

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'bad input: `errors` lists each invalid field by its path',
  401: 'the request is not signed (or the token is missing; a webhook: its signature, timestamp or token is missing or wrong)',
  403: 'the signature or token does not match',
  404: 'no such run, iteration or artefact',
  409: "the run's state does not allow this (or the same request is still being handled, or an artefact's bytes changed since they were written)",
  413: 'the body is larger than 1 MiB',
  415: 'the body is not application/json',
  422: 'this Idempotency-Key was used with another body',
  429: 'throttled: retry later',
  500: 'the request failed; the service log has the cause',
  503: 'the store or a secret could not be reached: retry later (a webhook sender retries)',
};

interface Components {
  schemas: Record<string, JsonSchema>;
  /** The component name of each route's body, query and answer. */
  names: Map<z.ZodType, string>;
}

/**
 * Components are named after the first route that uses them (`startRunRequest`,
 * `getRunResponse`); a schema two routes share is one component.
 */
function componentSchemas(): Components {
  const inputs = z.registry<{ id: string }>();
  const outputs = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  const add = (registry: typeof inputs, schema: z.ZodType | undefined, id: string) => {
    if (!schema || names.has(schema)) return;
    names.set(schema, id);
    registry.add(schema, { id });
  };
  add(outputs, ProblemSchema, 'Problem');
  for (const route of ALL_ROUTES) {
    add(inputs, route.body, `${route.id}Request`);
    add(inputs, route.query, `${route.id}Query`);
    add(outputs, route.success.schema, `${route.id}Response`);
  }
  const options = {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id: string) => `#/components/schemas/${id}`,
  } as const;
  const input = z.toJSONSchema(inputs, { ...options, io: 'input' }).schemas;
  const output = z.toJSONSchema(outputs, { ...options, io: 'output' }).schemas;
  return { schemas: asComponents({ ...input, ...output }), names };
}

/**
 * `$schema` is the document's dialect and `$id` the component's place, so neither is
 * repeated inside a component.
 */
function asComponents(schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema]),
  );
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function parametersOf(route: ApiRoute, components: Components): unknown[] {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'n' ? { type: 'integer', minimum: 1 } : { type: 'string' },
  }));
  const queryName = route.query && components.names.get(route.query);
  const querySchema = queryName ? components.schemas[queryName] : undefined;
  const properties = (querySchema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((querySchema?.required ?? []) as string[]);
  const query = Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema,
  }));
  const header = route.idempotent
    ? [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'a retry with the same key gets the first answer and starts nothing',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      ]
    : [];
  return [...path, ...query, ...header];
}

function operationOf(route: ApiRoute, components: Components): JsonSchema {
  const named = (schema: z.ZodType) => ref(components.names.get(schema)!);
  const problems = [...new Set([...route.problems, ...COMMON_PROBLEMS])].sort();
  const success = route.success.schema
    ? {
        description: route.success.description,
        content: { 'application/json': { schema: named(route.success.schema) } },
      }
    : route.success.status === 302
      ? {
          description: route.success.description,
          headers: { Location: { schema: { type: 'string', format: 'uri' } } },
        }
      : {
          description: route.success.description,
          content: { 'application/json': { schema: { type: 'object' } } },
        };
  return {
    operationId: route.id,
    summary: route.summary,
    parameters: parametersOf(route, components),
    // A webhook: no authorizer; the route checks the sender's own signature or token.
    ...(route.auth === 'sender'
      ? {
          security: [],
          requestBody: {
            required: true,
            description: "the sender's payload, byte for byte (what its signature covers)",
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        }
      : {}),
    ...(route.body
      ? {
          requestBody: {
            required: !route.bodyOptional,
            content: { 'application/json': { schema: named(route.body) } },
          },
        }
      : {}),
    responses: {
      [String(route.success.status)]: success,
      ...Object.fromEntries(
        problems.map((status) => [
          String(status),
          {
            description: PROBLEM_DESCRIPTIONS[status] ?? 'a problem',
            content: { [PROBLEM_CONTENT_TYPE]: { schema: ref('Problem') } },
          },
        ]),
      ),
    },
  };
}

/** The whole document; `serverUrl` is where the API is served (`/` when not known). */
export function openApiDocument(options: { version: string; serverUrl?: string }): JsonSchema {
  const components = componentSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ALL_ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operationOf(route, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ralph-cloud Run API',
      version: options.version,
      description:
        'Start, follow, cancel and resume Ralph loops. Every route is signed with AWS SigV4 (service execute-api) unless the deployment uses a JWT authorizer; refusals are RFC 9457 problem+json.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: options.serverUrl ?? '/' }],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        sigv4: {
          type: 'apiKey',
          name: 'Authorization',
          in: 'header',
          description: 'AWS Signature Version 4 (service execute-api)',
        },
      },
    },
    security: [{ sigv4: [] }],
  };
}
