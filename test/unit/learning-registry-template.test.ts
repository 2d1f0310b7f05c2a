import { describe, expect, it } from 'vitest';
import { addedBlock, templateCandidate } from '../../lambdas/core/learning/registry/template.js';
import { recorded } from '../support/run-history.js';

/** Real `git diff` of a passing change: a README line and a new error class with its use. */
const GUARD_DIFF = `diff --git a/README.md b/README.md
index a00621b..d2dfc57 100644
--- a/README.md
+++ b/README.md
@@ -1 +1,3 @@
 # Shop
+
+Account pages.
diff --git a/src/account/profile.ts b/src/account/profile.ts
index 6b59e00..8cb6041 100644
--- a/src/account/profile.ts
+++ b/src/account/profile.ts
@@ -3,7 +3,15 @@ interface User {
 }
 declare function findUser(id: string): User | null;
 
+export class UserNotFoundError extends Error {
+  constructor(readonly id: string) {
+    super(\`no user with id \${id}\`);
+    this.name = 'UserNotFoundError';
+  }
+}
+
 export function emailOf(id: string): string {
   const user = findUser(id);
+  if (user === null) throw new UserNotFoundError(id);
   return user.email;
 }
`;
const RUN = { runId: 'run-1', projectId: 'shop', endedAt: '2025-03-01T11:00:00.000Z' };
const ERROR_CLASS = [
  'export class UserNotFoundError extends Error {',
  '  constructor(readonly id: string) {',
  '    super(`no user with id ${id}`);',
  "    this.name = 'UserNotFoundError';",
  '  }',
  '}',
].join('\n');

describe('Function: addedBlock', () => {
  it('takes the largest inserted block of code, not prose and not a one-liner', () => {
    expect(addedBlock(GUARD_DIFF)).toEqual({
      path: 'src/account/profile.ts',
      language: 'typescript',
      code: ERROR_CLASS,
    });
  });

  it('takes no block that rewrites code, nor one longer than 30 lines', () => {
    const rewrite = GUARD_DIFF.replace('+export class', '-class UserNotFound {}\n+export class');
    const long = Array.from({ length: 31 }, (_, index) => `+const a${index} = ${index};`);
    const created = `diff --git a/src/c.ts b/src/c.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/c.ts\n@@ -0,0 +1,31 @@\n${long.join('\n')}\n`;
    expect(addedBlock(rewrite)).toBeUndefined();
    expect(addedBlock(created)).toBeUndefined();
    expect(addedBlock(created.replace('+const a30 = 30;\n', ''))?.code.split('\n')).toHaveLength(
      30,
    );
  });
});

describe('Function: templateCandidate', () => {
  it('makes the block a template of its language, in the pass’s words', () => {
    // Prepare
    const passing = recorded(3, { summary: 'Throw a named error for an unknown user' });

    // Act
    const candidate = templateCandidate(RUN, passing, GUARD_DIFF, 'bugfix');

    // Assess
    expect(candidate).toEqual({
      patternId: expect.stringMatching(/^tmpl-[0-9a-f]{12}$/),
      type: 'template',
      title: 'typescript: export class UserNotFoundError extends Error {',
      body: 'Throw a named error for an unknown user. Added to src/account/profile.ts by a passing change.',
      category: 'bugfix',
      template: { language: 'typescript', code: ERROR_CLASS },
      tags: ['typescript'],
      sources: [{ runId: 'run-1', projectId: 'shop', iterations: [3], at: RUN.endedAt }],
    });
  });

  it('gives the same id for the same code from another run, and none for a failed iteration', () => {
    const first = templateCandidate(RUN, recorded(3), GUARD_DIFF, 'bugfix');
    const again = templateCandidate({ ...RUN, runId: 'run-2' }, recorded(7), GUARD_DIFF, 'feature');
    expect(again?.patternId).toBe(first?.patternId);
    expect(
      templateCandidate(RUN, recorded(3, { outcome: 'gates_failed' }), GUARD_DIFF, 'bugfix'),
    ).toBeUndefined();
  });
});
