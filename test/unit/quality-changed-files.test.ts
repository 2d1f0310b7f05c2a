import { describe, expect, it } from 'vitest';
import { changedFiles } from '../../lambdas/core/control/quality/changed-files.js';
import { assessQuality } from '../../lambdas/core/control/quality/enforce.js';

/** Sections as `git diff --binary --patch --src-prefix=a/ --dst-prefix=b/` writes them. */
const modified = [
  'diff --git a/src/app.ts b/src/app.ts',
  'index 1111111..2222222 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,3 +1,4 @@',
  ' const a = 1;',
  '--- not a header: a removed line that starts with two dashes',
  '+const b = 2;',
  '+const c = 3;',
  ' export { a };',
].join('\n');
const created = [
  'diff --git a/src/new.ts b/src/new.ts',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/src/new.ts',
  '@@ -0,0 +1,2 @@',
  '+export const x = 1;',
  '+export const y = 2;',
].join('\n');
const deleted = [
  'diff --git a/src/old.ts b/src/old.ts',
  'deleted file mode 100644',
  'index 4444444..0000000',
  '--- a/src/old.ts',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-export {};',
].join('\n');
const renamed = [
  'diff --git a/lib/a.ts b/lib/b.ts',
  'similarity index 100%',
  'rename from lib/a.ts',
  'rename to lib/b.ts',
].join('\n');
const emptyCreated = [
  'diff --git a/src/empty.ts b/src/empty.ts',
  'new file mode 100644',
  'index 0000000..e69de29',
].join('\n');
const binary = [
  'diff --git a/logo.png b/logo.png',
  'new file mode 100644',
  'index 0000000..5555555',
  'GIT binary patch',
  'literal 12',
  'TcmZ?wbhEHbWMp7uXk-8Y2L=HE',
  '',
  'literal 0',
  'HcmV?d00001',
].join('\n');
const binaryWithoutData = [
  'diff --git a/font.woff b/font.woff',
  'index 6666666..7777777 100644',
  'Binary files a/font.woff and b/font.woff differ',
].join('\n');

describe('Function: changedFiles', () => {
  it('reads nothing from an empty patch', () => {
    expect(changedFiles('')).toEqual([]);
  });

  it('counts each file of a patch on its own, in order', () => {
    const patch = [modified, created, deleted, renamed, emptyCreated, binary, binaryWithoutData]
      .map((section) => `${section}\n`)
      .join('');

    expect(changedFiles(patch)).toEqual([
      { path: 'src/app.ts', added: 2, removed: 1, created: false },
      { path: 'src/new.ts', added: 2, removed: 0, created: true },
      { path: 'src/old.ts', added: 0, removed: 1, created: false },
      { path: 'lib/b.ts', added: 0, removed: 0, created: false },
      { path: 'src/empty.ts', added: 0, removed: 0, created: true },
      { path: 'logo.png', created: true },
      { path: 'font.woff', created: false },
    ]);
  });

  it('does not take an added line that reads like a header for a new file', () => {
    const tricky = [
      'diff --git a/src/gen.ts b/src/gen.ts',
      'index 1111111..2222222 100644',
      '--- a/src/gen.ts',
      '+++ b/src/gen.ts',
      '@@ -1 +1,3 @@',
      ' a',
      '+new file mode 100644',
      '+diff --git is text here, not at the start of a line of the patch',
    ].join('\n');

    expect(changedFiles(`${tricky}\n`)).toEqual([
      { path: 'src/gen.ts', added: 2, removed: 0, created: false },
    ]);
  });

  it('gives assessQuality what missingTests needs: a source file created or grown, no test', () => {
    const withoutTest = assessQuality(
      { gates: [], files: changedFiles(`${created}\n`) },
      { tests: { requireNewTestsForNewCode: true } },
    );
    const withTest = assessQuality(
      {
        gates: [],
        files: changedFiles(`${created}\n${created.replaceAll('src/new.ts', 'src/new.test.ts')}\n`),
      },
      { tests: { requireNewTestsForNewCode: true } },
    );

    expect(withoutTest.findings).toEqual([
      expect.objectContaining({
        kind: 'missing_tests',
        message: expect.stringContaining('2 source lines added in 1 file (src/new.ts)'),
      }),
    ]);
    expect(withTest.findings).toEqual([]);
  });
});
