import { describe, expect, it } from 'vitest';
import {
  matchesScope,
  sameScope,
  scopeMatchesAny,
  scopePatternOf,
} from '../../lambdas/core/learning/scope.js';
import { isControlTask } from '../../lambdas/core/learning/control-group.js';
import { taskCategory } from '../../lambdas/core/learning/task-category.js';

describe('scope patterns', () => {
  it('are the shared first folder, else the shared extension, else the whole repository', () => {
    expect(scopePatternOf(['src/a.ts', './src/lib/b.ts'])).toBe('src/**');
    expect(scopePatternOf(['a.py', 'tools/b.py'])).toBe('**/*.py');
    expect(scopePatternOf(['a.py', 'src/b.ts'])).toBeUndefined();
    expect(scopePatternOf([])).toBeUndefined();
  });

  it('match paths as globs do', () => {
    expect(matchesScope('src/**', 'src/deep/x.ts')).toBe(true);
    expect(matchesScope('src/**', 'lib/x.ts')).toBe(false);
    expect(matchesScope('**/*.py', 'a.py')).toBe(true);
    expect(matchesScope('**/*.py', 'pkg/mod/a.py')).toBe(true);
    expect(matchesScope('**/*.py', 'a.pyc')).toBe(false);
    expect(matchesScope('auth/*.py', 'auth/sub/a.py')).toBe(false);
    expect(matchesScope('a?.ts', 'ab.ts')).toBe(true);
    expect(matchesScope(undefined, 'anything')).toBe(true);
  });

  it('skip a rule whose scope matches no file of the repository', () => {
    expect(scopeMatchesAny('legacy/**', ['src/a.ts', 'README.md'])).toBe(false);
    expect(scopeMatchesAny('src/**', ['src/a.ts'])).toBe(true);
  });

  it('say two sets of files are in the same place when they share a first folder', () => {
    expect(sameScope(['src/a.ts'], ['src/b/c.ts'])).toBe(true);
    expect(sameScope(['src/a.ts'], ['lib/c.ts'])).toBe(false);
    expect(sameScope(['a.ts'], ['b.ts'])).toBe(true);
    expect(sameScope([], ['lib/c.ts'])).toBe(true);
  });
});

describe('the control group', () => {
  it('takes about its share of tasks, the same ones every time', () => {
    const ids = Array.from({ length: 2000 }, (_, index) => `US-${index}`);
    const controls = ids.filter((id) => isControlTask('run-7', id, { share: 0.1 }));
    expect(controls.length).toBeGreaterThan(150);
    expect(controls.length).toBeLessThan(250);
    expect(ids.filter((id) => isControlTask('run-7', id, { share: 0.1 }))).toEqual(controls);
  });

  it('is exactly the tasks named, when they are', () => {
    expect(isControlTask('r', 'US-003', { share: 0.9, tasks: ['US-003'] })).toBe(true);
    expect(isControlTask('r', 'US-001', { share: 0.9, tasks: ['US-003'] })).toBe(false);
    expect(isControlTask('r', 'US-001', { share: 0 })).toBe(false);
  });
});

describe('task categories', () => {
  it('come from the title first, then the description', () => {
    expect(taskCategory({ title: 'Fix crash on empty cart', description: '' })).toBe('bugfix');
    expect(taskCategory({ title: 'Add tests for the parser', description: '' })).toBe('testing');
    expect(taskCategory({ title: 'Cart page', description: 'Document it in the README' })).toBe(
      'docs',
    );
    expect(taskCategory({ title: 'Cart page', description: 'Shows items' })).toBe('feature');
  });
});
