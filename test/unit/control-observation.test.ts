import { describe, expect, it } from 'vitest';
import { observeIteration } from '../../lambdas/core/control/observation.js';

const PATCH = [
  'diff --git a/src/todos.ts b/src/todos.ts',
  '--- a/src/todos.ts',
  '+++ b/src/todos.ts',
  '@@ -1,2 +1,3 @@',
  '-export const a = 1;',
  '+export const a = 2;',
  '+export const b = 3;',
  ' // end',
  '',
].join('\n');

const STREAM_JSON = [
  { type: 'system', subtype: 'init', cwd: '/repo' },
  {
    type: 'assistant',
    message: {
      content: [
        { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/repo/src/todos.ts' } },
      ],
    },
  },
  {
    type: 'assistant',
    message: {
      content: [
        { type: 'tool_use', id: 't2', name: 'Edit', input: { file_path: '/repo/src/todos.ts' } },
      ],
    },
  },
  {
    type: 'assistant',
    message: {
      content: [{ type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'npm test' } }],
    },
  },
]
  .map((event) => JSON.stringify(event))
  .join('\n');

describe('observeIteration', () => {
  it('measures the change from the patch', () => {
    // Act
    const observed = observeIteration({ patch: PATCH, gates: [] });

    // Assess
    expect(observed.linesAdded).toBe(2);
    expect(observed.linesRemoved).toBe(1);
    expect(observed.agent).toBeUndefined();
  });

  it('reads test counts from a gate and treats an empty passing tsc as clean', () => {
    // Act
    const observed = observeIteration({
      patch: '',
      gates: [
        {
          name: 'test',
          command: 'npx vitest run',
          passed: false,
          timedOut: false,
          output: ' Test Files  1 failed (1)\n      Tests  2 failed | 10 passed (12)\n',
        },
        {
          name: 'typecheck',
          command: 'npx tsc --noEmit',
          passed: true,
          timedOut: false,
          output: '',
        },
        { name: 'lint', command: 'npx tsc --noEmit', passed: false, timedOut: false, output: '' },
      ],
    });

    // Assess
    expect(observed.gateCounts.test?.tests).toMatchObject({ passed: 10, failed: 2, total: 12 });
    expect(observed.gateCounts.typecheck?.diagnostics).toMatchObject({ errors: 0, warnings: 0 });
    // A failing tool that printed nothing is unknown, never clean.
    expect(observed.gateCounts.lint?.diagnostics).toBeUndefined();
  });

  it("summarises the agent's activity from its stream-json transcript, paths relative", () => {
    // Act
    const observed = observeIteration({
      patch: '',
      gates: [],
      transcript: STREAM_JSON,
      cwd: '/repo',
    });

    // Assess
    expect(observed.agent?.format).toBe('stream-json');
    expect(observed.agent?.filesRead).toEqual(['src/todos.ts']);
    expect(observed.agent?.filesWritten).toEqual(['src/todos.ts']);
    expect(observed.agent?.commandsRun).toEqual(['npm test']);
    expect(observed.agent?.testsRun).toBe(true);
  });
});
