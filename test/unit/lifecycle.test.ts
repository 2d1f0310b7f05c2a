import { describe, expect, it } from 'vitest';
import { newRunId, projectIdOf } from '../../lambdas/core/steps/lifecycle.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { RunConfigSchema } from '../../lambdas/core/schemas/config.js';

describe('Function: newRunId', () => {
  it('is sortable by time and safe as a key and an execution name', () => {
    const id = newRunId(new Date('2026-11-23T10:00:05.123Z'), 'a1b2c3');
    expect(id).toBe('r20261123-100005-a1b2c3');
    expect(artefactKeys.manifest(id)).toBe(`runs/${id}/manifest.json`);
  });
});

describe('Function: projectIdOf', () => {
  it.each([
    ['MyApp', 'myapp'],
    ['Task Priority / v2', 'task-priority-v2'],
    ['***', 'project'],
  ])('%s → %s', (project, id) => {
    expect(projectIdOf(project)).toBe(id);
  });
});

describe('Object: artefactKeys', () => {
  it('builds the documented layout and refuses unsafe ids', () => {
    expect(artefactKeys.iteration('r1', 3, 'gates.json')).toBe('runs/r1/iterations/3/gates.json');
    expect(artefactKeys.patternSet('p', 2)).toBe('projects/p/patterns/v2.json');
    expect(() => artefactKeys.manifest('../etc')).toThrow(/run id: "\.\.\/etc" is unsafe/);
  });
});

describe('Schema: RunConfigSchema', () => {
  it('fills every default from an empty file', () => {
    const config = RunConfigSchema.parse({});
    expect(config.limits).toEqual({
      maxIterations: 10,
      maxConsecutiveFailures: 5,
    });
    expect(config.agent.timeoutSeconds).toBe(1800);
    expect(config.gates).toEqual([]);
  });

  it('refuses duplicate gate names with the path', () => {
    const result = RunConfigSchema.safeParse({
      gates: [
        { name: 'test', command: 'a' },
        { name: 'test', command: 'b' },
      ],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['gates', 1, 'name']);
  });
});
