import { describe, expect, it } from 'vitest';
import { largestParts, ownerOf } from '../../bench/api/bundle-composition.js';

describe('bench/api: bundle composition', () => {
  it('names the package an input comes from, scoped or not, innermost when nested', () => {
    expect(ownerOf('node_modules/zod/v4/locales/he.js')).toBe('zod');
    expect(ownerOf('node_modules/@smithy/core/dist-es/index.js')).toBe('@smithy/core');
    expect(ownerOf('../../node_modules/@aws-sdk/client-s3/dist-es/S3Client.js')).toBe(
      '@aws-sdk/client-s3',
    );
    expect(ownerOf('node_modules/a/node_modules/@b/c/index.js')).toBe('@b/c');
  });

  it('names our own inputs by their first two folders', () => {
    expect(ownerOf('lambdas/core/runs/start-run.ts')).toBe('lambdas/core');
    expect(ownerOf('lambdas/handlers/api-read.ts')).toBe('lambdas/handlers');
  });

  it('sums the bytes per owner and keeps the largest, ties by name, nothing empty', () => {
    // Prepare
    const inputs = {
      'node_modules/zod/v4/core/schemas.js': { bytesInOutput: 300 },
      'node_modules/zod/v4/locales/en.js': { bytesInOutput: 200 },
      'node_modules/@smithy/core/dist-es/a.js': { bytesInOutput: 100 },
      'lambdas/core/a.ts': { bytesInOutput: 100 },
      'lambdas/core/types-only.ts': { bytesInOutput: 0 },
      'lambdas/adapters/x.ts': { bytesInOutput: 50 },
      'lambdas/api/types.ts': { bytesInOutput: 0 },
    };

    // Act
    const parts = largestParts(inputs, 3);

    // Assess
    expect(parts).toEqual([
      { owner: 'zod', bytes: 500 },
      { owner: '@smithy/core', bytes: 100 },
      { owner: 'lambdas/core', bytes: 100 },
    ]);
    expect(largestParts(inputs, 10).map((part) => part.owner)).not.toContain('lambdas/api');
  });
});
