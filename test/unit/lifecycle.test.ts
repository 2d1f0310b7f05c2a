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

  it('puts a registry body under its scope, version and digest, and an archive by its instant', () => {
    expect(artefactKeys.registryBody('org', 'pat-1', 2, '0123abcd')).toBe(
      'registry/org/patterns/pat-1/v2-0123abcd.json',
    );
    expect(artefactKeys.registryBody('project:acme', 'pat-1', 1, 'ff00')).toBe(
      'registry/projects/acme/patterns/pat-1/v1-ff00.json',
    );
    expect(artefactKeys.registryArchive('project:acme', 'pat-1', '2026-04-01T08:30:00.123Z')).toBe(
      'registry/archive/projects/acme/pat-1/20260401083000123.json',
    );
    expect(() => artefactKeys.registryBody('org', 'pat-1', 1, '../x')).toThrow(
      /body digest: "\.\.\/x" is unsafe/,
    );
    expect(() => artefactKeys.registryBody('project:', 'pat-1', 1, 'ff')).toThrow(/registry scope/);
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
