import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lambdas/api/openapi.js';
import { ALL_ROUTES } from '../../lambdas/api/route-table.js';

describe('Function: openApiDocument', () => {
  const document = openApiDocument({ version: '1.0.0' }) as {
    paths: Record<
      string,
      Record<string, { operationId: string; responses: Record<string, unknown> }>
    >;
    components: { schemas: Record<string, unknown> };
  };

  it('is a valid OpenAPI 3.1 document', async () => {
    // Act
    const result = await new Validator().validate(
      document as unknown as Parameters<Validator['validate']>[0],
    );

    // Assess
    expect(result).toEqual({ valid: true });
    expect((document as { openapi?: string }).openapi).toBe('3.1.0');
  });

  it('documents every route of the route table, and no other', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`,
      ),
    );
    expect(operations.sort()).toEqual(
      ALL_ROUTES.map((route) => `${route.method} ${route.path} ${route.id}`).sort(),
    );
  });

  it('resolves every $ref to a component', () => {
    const refs = [
      ...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g),
    ];
    expect(refs.length).toBeGreaterThan(0);
    for (const [, name] of refs) expect(document.components.schemas).toHaveProperty(name!);
  });

  it('describes the start body from its zod schema, and refusals as problem+json', () => {
    const start = document.paths['/runs']!.post!;
    expect(Object.keys(start.responses).sort()).toEqual(
      ['202', '400', '401', '403', '409', '413', '415', '422', '429', '500'].sort(),
    );
    const body = document.components.schemas.startRunRequest as {
      required: string[];
      additionalProperties: boolean;
    };
    expect(body.required).toEqual(['repo', 'prd']);
    expect(body.additionalProperties).toBe(false);
  });

  it('describes the resume body as optional, with the new iteration limit', () => {
    const resume = document.paths['/runs/{id}/resume']!.post! as unknown as {
      requestBody: { required: boolean };
    };
    const body = document.components.schemas.resumeRunRequest as {
      properties: Record<string, { type: string; exclusiveMinimum?: number }>;
      required?: string[];
    };
    expect(resume.requestBody.required).toBe(false);
    expect(body.properties.maxIterations).toMatchObject({ type: 'integer', exclusiveMinimum: 0 });
    expect(body.required).toBeUndefined();
  });

  it("documents the webhook routes without the API's authorizer, with their raw payload", () => {
    for (const path of ['/hooks/sentry', '/hooks/newrelic']) {
      const hook = document.paths[path]!.post! as unknown as {
        security: unknown[];
        requestBody: { required: boolean };
        responses: Record<string, unknown>;
      };
      expect(hook.security).toEqual([]);
      expect(hook.requestBody.required).toBe(true);
      expect(Object.keys(hook.responses)).toEqual(
        expect.arrayContaining(['202', '400', '401', '413', '503']),
      );
    }
  });
});
