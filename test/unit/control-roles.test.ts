import { describe, expect, it } from 'vitest';
import {
  ROLES,
  roleInstructions,
  selectRole,
} from '../../lambdas/core/control/roles/select-role.js';
import type { RoleTaskState } from '../../lambdas/core/control/roles/select-role.js';
import { templates } from '../support/templates.js';

const work: RoleTaskState = { status: 'in_progress' };
const review = (testsPassing: boolean): RoleTaskState => ({ status: 'in_review', testsPassing });
const criteria = (n: number, extra: string[] = []) => ({
  acceptanceCriteria: [
    ...Array.from({ length: n }, (_, i) => `Criterion ${i + 1} works`),
    'Typecheck passes',
    ...extra,
  ],
});

describe('Function: selectRole', () => {
  it.each([
    [3, 'implementer'],
    [4, 'planner'],
  ])('starts a story with %i real criteria (planner above 3) with the %s', (n, role) => {
    expect(
      selectRole({ state: { status: 'not_started' }, story: criteria(n), failures: [] }),
    ).toEqual({
      role,
      why: `start of task: ${n} criteria (planner above 3)`,
    });
  });

  it('does not count boilerplate criteria towards planning', () => {
    const story = {
      acceptanceCriteria: [
        'A works',
        'B works',
        'C works',
        'Typecheck passes',
        'Tests pass',
        'Verify in browser using dev-browser skill',
      ],
    };
    expect(selectRole({ state: { status: 'not_started' }, story, failures: [] }).role).toBe(
      'implementer',
    );
  });

  it('honours a configured planning threshold', () => {
    const context = {
      state: { status: 'not_started' } as RoleTaskState,
      story: criteria(1),
      failures: [],
    };
    expect(selectRole(context, { plannerAboveCriteria: 0 })).toEqual({
      role: 'planner',
      why: 'start of task: 1 criterion (planner above 0)',
    });
  });

  it('debugs a failing test or a compiler error', () => {
    expect(selectRole({ state: work, story: criteria(1), failures: ['test_failure'] })).toEqual({
      role: 'debugger',
      why: 'the last attempt left a failing test',
    });
    expect(
      selectRole({
        state: work,
        story: criteria(1),
        failures: ['too_complex', 'compilation_error'],
      }).role,
    ).toBe('debugger');
  });

  it.each([
    [['too_complex'], 'implementer'],
    [['too_complex', 'too_complex'], 'architect'],
    [['too_complex', 'test_failure', 'too_complex'], 'architect'],
    [['too_complex', 'too_complex', 'test_failure'], 'debugger'],
  ] as const)('after failures %j: %s', (failures, role) => {
    expect(selectRole({ state: work, story: criteria(1), failures }).role).toBe(role);
  });

  it('calls the architect at a configured count', () => {
    expect(
      selectRole(
        { state: work, story: criteria(1), failures: ['too_complex'] },
        { architectAfterTooComplex: 1 },
      ),
    ).toEqual({
      role: 'architect',
      why: 'too complex 1 times (architect at 1): the design needs rethinking',
    });
  });

  it('reviews a task in review', () => {
    expect(selectRole({ state: review(true), story: criteria(2), failures: [] })).toEqual({
      role: 'reviewer',
      why: 'tests pass: review before completing',
    });
    expect(selectRole({ state: review(false), story: criteria(2), failures: [] })).toEqual({
      role: 'reviewer',
      why: 'gates passed: review before completing',
    });
  });

  it('sends a task whose story asks for tests to the tester until they pass', () => {
    const story = criteria(1, ['Add unit tests for the filter']);
    expect(selectRole({ state: review(false), story, failures: [] }).role).toBe('tester');
    expect(selectRole({ state: review(true), story, failures: [] }).role).toBe('reviewer');
  });

  it('does not take the "Tests pass" boilerplate for a request for tests', () => {
    const story = { acceptanceCriteria: ['Filter works', 'Tests pass'] };
    expect(selectRole({ state: review(false), story, failures: [] }).role).toBe('reviewer');
  });

  it('plans afresh for a blocked task being retried', () => {
    const blocked: RoleTaskState = { status: 'blocked', reason: 'waiting for US-001' };
    expect(selectRole({ state: blocked, story: criteria(1), failures: [] })).toEqual({
      role: 'planner',
      why: 'retrying a blocked task (waiting for US-001): plan afresh',
    });
  });

  it('implements a task in progress after a missing-context or unknown failure', () => {
    expect(
      selectRole({ state: work, story: criteria(5), failures: ['missing_context'] }).role,
    ).toBe('implementer');
    expect(selectRole({ state: work, story: criteria(5), failures: ['unknown'] }).role).toBe(
      'implementer',
    );
  });

  it('gives a complete task a last review', () => {
    const complete: RoleTaskState = { status: 'complete' };
    expect(
      selectRole({ state: complete, story: criteria(1), failures: ['test_failure'] }).role,
    ).toBe('reviewer');
  });
});

describe('Function: roleInstructions', () => {
  it('has a distinct paragraph naming each role', () => {
    const paragraphs = ROLES.map((role) => roleInstructions(role, templates));
    expect(new Set(paragraphs).size).toBe(ROLES.length);
    ROLES.forEach((role, i) =>
      expect(paragraphs[i]).toMatch(
        new RegExp(`^You are the ${role.toUpperCase()} for this iteration\\.`),
      ),
    );
  });
});
