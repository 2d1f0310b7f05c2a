/** Vitest failures (`vitest run`, default reporter, no colour). */
import type { ErrorKind, Names } from './kind.js';

const spec = (n: Names, body: string, head = '') => ({
  [`test/${n.file}.test.ts`]: `import { describe, expect, it, vi } from 'vitest';\n${head}\ndescribe('${n.Type}', () => {\n${body}\n});\n`,
});

export const VITEST_KINDS: ErrorKind[] = [
  {
    id: 'vitest-tobe-mismatch',
    tool: 'vitest',
    title: 'Vitest AssertionError: expected X to be Y (Object.is equality) on a computed value',
    body: 'Read which side is wrong: fix the code under test when the expectation is the spec; use toEqual for objects and arrays, toBeCloseTo for floats.',
    tags: ['vitest', 'testing', 'assertions'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      spec(
        n,
        `  it('adds tax', () => {\n    const ${n.value}Total = 100 * 1.2;\n    expect(${n.value}Total).toBe(121);\n  });`,
      ),
  },
  {
    id: 'vitest-toequal-deep',
    tool: 'vitest',
    title: 'Vitest AssertionError: expected object to deeply equal another (toEqual diff)',
    body: 'Compare the Expected and Received diff: a missing, extra or renamed key; use toMatchObject when only some keys matter.',
    tags: ['vitest', 'testing', 'assertions'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      spec(
        n,
        `  it('maps the record', () => {\n    expect({ id: 'a1', ${n.field}: 'x' }).toEqual({ id: 'a1', ${n.field}: 'y' });\n  });`,
      ),
  },
  {
    id: 'vitest-expected-throw',
    tool: 'vitest',
    title: 'Vitest AssertionError: expected [Function] to throw an error, but it did not',
    body: 'Make the code throw on the invalid input (validate and throw a named error), and pass a function to expect, not the result of calling it.',
    tags: ['vitest', 'testing', 'errors', 'validation'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      spec(
        n,
        `  it('rejects a bad ${n.value}', () => {\n    const ${n.fn} = (text: string) => text.length;\n    expect(() => ${n.fn}('')).toThrow();\n  });`,
      ),
  },
  {
    id: 'vitest-spy-not-called',
    tool: 'vitest',
    title: 'Vitest: expected spy to be called N times, but got 0 times (vi.fn mock never called)',
    body: 'Check that the code under test receives the mock (injected, not a fresh instance) and that async work is awaited before asserting on the call.',
    tags: ['vitest', 'testing', 'mocks'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      spec(
        n,
        `  it('notifies', () => {\n    const ${n.fn} = vi.fn();\n    expect(${n.fn}).toHaveBeenCalledTimes(1);\n  });`,
      ),
  },
  {
    id: 'vitest-test-timeout',
    tool: 'vitest',
    title: 'Vitest Error: Test timed out in N ms (a promise that never settles)',
    body: 'Find the promise that never resolves: a missing await or resolve, an open server or timer; fake timers need vi.advanceTimersByTime. Raise the timeout only for real slow work.',
    tags: ['vitest', 'testing', 'async'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      spec(
        n,
        `  it('loads the ${n.value}', async () => {\n    await new Promise(() => undefined);\n  }, 200);`,
      ),
  },
  {
    id: 'vitest-import-missing-file',
    tool: 'vitest',
    title:
      'Vitest cannot load the test file: Failed to load url / failed to resolve import of a missing module',
    body: 'Fix the import path in the test (relative to the test file, with the right extension) or create the module it imports.',
    tags: ['vitest', 'testing', 'imports'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      spec(
        n,
        `  it('works', () => {\n    expect(${n.fn}).toBeDefined();\n  });`,
        `import { ${n.fn} } from '../src/${n.file}.js';\n`,
      ),
  },
  {
    id: 'vitest-cannot-read-undefined',
    tool: 'vitest',
    title: "TypeError: Cannot read properties of undefined (reading 'x') inside a test",
    body: 'The object is undefined where it is read: a lookup that found nothing or a missing fixture; guard the lookup or set up the data the test needs.',
    tags: ['vitest', 'testing', 'null-safety', 'javascript'],
    category: 'bugfix',
    instances: 3,
    files: (n) =>
      spec(
        n,
        `  it('reads the ${n.field}', () => {\n    const items: Record<string, { ${n.field}: string }> = {};\n    expect(items['a1']!.${n.field}).toBe('x');\n  });`,
      ),
  },
  {
    id: 'vitest-reference-error',
    tool: 'vitest',
    title: 'ReferenceError: X is not defined when a test runs (missing import or global)',
    body: 'Import the function or value into the test file; for vitest globals (describe, expect) import them from vitest or enable globals in the config.',
    tags: ['vitest', 'testing', 'imports'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      spec(
        n,
        `  it('formats', () => {\n    // @ts-expect-error not imported\n    expect(${n.fn}(2)).toBe('2');\n  });`,
      ),
  },
  {
    id: 'vitest-to-include',
    tool: 'vitest',
    title: "Vitest AssertionError: expected array to include 'item' (toContain)",
    body: 'The array or string does not contain the item: check the filter or mapping that builds it, and that toContain compares by identity (use toContainEqual for objects).',
    tags: ['vitest', 'testing', 'assertions', 'arrays'],
    category: 'testing',
    instances: 2,
    files: (n) =>
      spec(
        n,
        `  it('lists the ${n.value}', () => {\n    expect(['a1', 'b2']).toContain('${n.value}');\n  });`,
      ),
  },
  {
    id: 'vitest-snapshot-mismatch',
    tool: 'vitest',
    title: 'Vitest Error: Snapshot mismatched (inline or file snapshot out of date)',
    body: 'Read the diff: if the new output is intended, update the snapshot with vitest -u and review it; otherwise fix the code that changed the output.',
    tags: ['vitest', 'testing', 'snapshots'],
    category: 'testing',
    instances: 2,
    files: (n) =>
      spec(
        n,
        `  it('renders', () => {\n    expect({ ${n.field}: 'new' }).toMatchInlineSnapshot(\`\n      {\n        "${n.field}": "old",\n      }\n    \`);\n  });`,
      ),
  },
  {
    id: 'vitest-promise-rejected',
    tool: 'vitest',
    title: 'Vitest: promise rejected instead of resolving (await expect(...).resolves)',
    body: 'The async function rejects: read the rejection reason, fix the failing call (network, missing data), or assert .rejects.toThrow when rejection is the expected behaviour.',
    tags: ['vitest', 'testing', 'async', 'promises'],
    category: 'testing',
    instances: 2,
    files: (n) =>
      spec(
        n,
        `  it('saves the ${n.value}', async () => {\n    const ${n.fn} = async () => { throw new Error('${n.value} store unavailable'); };\n    await expect(${n.fn}()).resolves.toBe(true);\n  });`,
      ),
  },
];
