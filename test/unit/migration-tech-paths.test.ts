import { describe, expect, it } from 'vitest';
import {
  extractPathMentions,
  pathPrefix,
  repoPathsFromServiceInsights,
  stringsIn,
} from '../../bin/cli/patterns-migration/tech-paths.js';

describe('Function: extractPathMentions', () => {
  it('finds directories, files and deep paths in prose', () => {
    // Act
    const paths = extractPathMentions(
      'OAuth callbacks live in service/oauth/callback.ts; boards in client/src/boards and (packages/).',
    );

    // Assess
    expect(paths).toEqual(['service/oauth/callback.ts', 'client/src/boards', 'packages/']);
  });

  it('normalises: no leading ./, no trailing glob or sentence punctuation, no repeats', () => {
    expect(
      extractPathMentions('See ./infra/lib/queues.ts. Also infra/lib/queues.ts, apps/*'),
    ).toEqual(['infra/lib/queues.ts', 'apps/']);
  });

  it.each([
    ['and/or', 'a word pair'],
    ['tack/zuck', 'two names'],
    ['OAuth/SSO/SAML', 'capitalised words'],
    ['/api/v1/oauth', 'an absolute route'],
    ['https://example.com/a/b.ts', 'a URL'],
    ['github.com/org/repo', 'a domain'],
    ['../outside/file.ts', 'a parent path'],
    ['@scope/pkg/index.ts', 'a scoped package'],
    ['1/2/3', 'numbers'],
    ['a//b.ts', 'an empty segment'],
  ])('does not take %s (%s) for a path', (text) => {
    expect(extractPathMentions(`mentions ${text} here`)).toEqual([]);
  });
});

describe('Function: pathPrefix', () => {
  it('is the top-level directory', () => {
    expect(pathPrefix('service/oauth/callback.ts')).toBe('service/');
    expect(pathPrefix('packages/')).toBe('packages/');
  });
});

describe('Function: stringsIn', () => {
  it('collects every string, keys included, in document order', () => {
    expect(stringsIn({ a: ['x', { 'k/': 'y' }], b: 3, c: null })).toEqual([
      'a',
      'x',
      'k/',
      'y',
      'b',
      'c',
    ]);
  });
});

describe('Function: repoPathsFromServiceInsights', () => {
  it('maps each service to the top-level directories mentioned anywhere in its insight', () => {
    // Prepare: the shapes a v1 file uses — text, lists, nested objects.
    const insights = {
      tack: {
        description: 'Pinterest integration',
        key_paths: ['service/oauth/pinterest.ts', 'service/pins/', 'client/src/boards/'],
        notes: ['Webhooks land in service/webhooks/handler.ts'],
      },
      charlotte: 'Components live in packages/ui/src/ (e.g. packages/ui/src/Button.tsx).',
      aero: {
        paths: ['apps/web/', 'infra/'],
        nested: { more: ['packages/scheduler/src/queue.ts'] },
      },
    };

    // Act
    const { validRepoPaths, services } = repoPathsFromServiceInsights(insights);

    // Assess
    expect(validRepoPaths).toEqual({
      tack: ['service/', 'client/'],
      charlotte: ['packages/'],
      aero: ['apps/', 'infra/', 'packages/'],
    });
    expect(services[0]).toEqual({
      key: 'tack',
      service: 'tack',
      at: 'service_insights.tack',
      paths: [
        'service/oauth/pinterest.ts',
        'service/pins/',
        'client/src/boards/',
        'service/webhooks/handler.ts',
      ],
      prefixes: ['service/', 'client/'],
    });
  });

  it('lists a service that mentions no path, without giving it an (empty) rule', () => {
    const { validRepoPaths, services } = repoPathsFromServiceInsights({
      legacy: 'Deprecated; no new stories.',
      count: 3,
    });
    expect(validRepoPaths).toEqual({});
    expect(services.map((service) => [service.key, service.prefixes])).toEqual([
      ['legacy', []],
      ['count', []],
    ]);
  });

  it('lower-cases keys and combines the paths of keys that differ only in case', () => {
    const { validRepoPaths, services } = repoPathsFromServiceInsights({
      Tack: 'service/',
      tack: 'client/ and service/x.ts',
    });
    expect(validRepoPaths).toEqual({ tack: ['service/', 'client/'] });
    expect(services).toHaveLength(2);
  });

  it('keeps a service called __proto__ as an ordinary key', () => {
    const { validRepoPaths } = repoPathsFromServiceInsights(
      JSON.parse('{"__proto__": "lives in src/main.ts"}') as Record<string, unknown>,
    );
    expect(Object.keys(validRepoPaths)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(validRepoPaths)).toBe(Object.prototype);
  });
});
