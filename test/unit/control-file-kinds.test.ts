import { describe, expect, it } from 'vitest';
import {
  classifyPath,
  countFileKinds,
  normalisePath,
  pathArea,
} from '../../lambdas/core/control/signals/file-kinds.js';

describe('Function: classifyPath', () => {
  it.each([
    ['lambdas/core/prd.ts', 'source'],
    ['src/components/Button.tsx', 'source'],
    ['cmd/server/main.go', 'source'],
    ['src/lib.rs', 'source'],
    ['app/models.py', 'source'],
    ['scripts/deploy.sh', 'source'],
    ['lambdas/core/schemas/config.ts', 'source'],
  ])('%s is source', (path, kind) => {
    // Act / Assess
    expect(classifyPath(path)).toBe(kind);
  });

  it.each([
    ['test/unit/prd.test.ts'],
    ['src/prd.test.ts'],
    ['src/button.spec.tsx'],
    ['src/__tests__/button.tsx'],
    ['tests/integration/api.py'],
    ['pkg/server/handler_test.go'],
    ['app/test_models.py'],
    ['app/models_test.py'],
    ['app/conftest.py'],
    ['spec/models/user_spec.rb'],
    ['src/test/java/com/acme/AppTest.java'],
    ['test/fixtures/readme.md'],
  ])('%s is a test', (path) => {
    expect(classifyPath(path)).toBe('test');
  });

  it.each([
    ['README.md'],
    ['docs/architecture.md'],
    ['docs/conf.py'],
    ['doc/index.html'],
    ['guide.rst'],
    ['notes/todo.txt'],
    ['LICENSE'],
    ['CHANGELOG'],
    ['site/intro.mdx'],
  ])('%s is documentation', (path) => {
    expect(classifyPath(path)).toBe('doc');
  });

  it.each([
    ['package.json'],
    ['package-lock.json'],
    ['tsconfig.json'],
    ['vitest.config.ts'],
    ['eslint.config.js'],
    ['.eslintrc.cjs'],
    ['.prettierrc'],
    ['.github/workflows/ci.yml'],
    ['Cargo.toml'],
    ['Cargo.lock'],
    ['go.mod'],
    ['Dockerfile'],
    ['agent/Dockerfile'],
    ['Makefile'],
    ['requirements.txt'],
    ['requirements-dev.txt'],
    ['CMakeLists.txt'],
    ['.gitignore'],
    ['.env.local'],
    ['infra/main.tf'],
  ])('%s is configuration', (path) => {
    expect(classifyPath(path)).toBe('config');
  });

  it.each([
    ['progress.txt'],
    ['prd.json'],
    ['archive/2026-01-01-feature/progress.txt'],
    ['.last-branch'],
    ['assets/logo.png'],
    ['data/blob.bin'],
  ])('%s is other (bookkeeping or data)', (path) => {
    expect(classifyPath(path)).toBe('other');
  });

  it('does not take a directory whose name merely contains "test" for a test directory', () => {
    expect(classifyPath('src/latest/feed.ts')).toBe('source');
    expect(classifyPath('src/testing-utils.ts')).toBe('source');
    expect(classifyPath('src/contest.py')).toBe('source');
  });

  it('reads Windows separators and a leading ./ like any other path', () => {
    expect(classifyPath('.\\test\\unit\\a.ts')).toBe('test');
    expect(classifyPath('./docs/a.md')).toBe('doc');
  });
});

describe('Function: normalisePath', () => {
  it('uses forward slashes and drops leading ./, doubled and trailing slashes', () => {
    expect(normalisePath('.\\src\\a.ts')).toBe('src/a.ts');
    expect(normalisePath('./././src//lib/')).toBe('src/lib');
    expect(normalisePath('/')).toBe('/');
  });
});

describe('Function: pathArea', () => {
  it('is the first two directory levels by default', () => {
    expect(pathArea('lambdas/core/control/signals/file-kinds.ts')).toBe('lambdas/core');
    expect(pathArea('lambdas/core/prd.ts')).toBe('lambdas/core');
  });

  it('is the only directory level of a shallow path', () => {
    expect(pathArea('src/index.ts')).toBe('src');
  });

  it('is "." for a file at the repository root', () => {
    expect(pathArea('README.md')).toBe('.');
    expect(pathArea('./package.json')).toBe('.');
  });

  it('honours the depth: 1, 2 and 3 levels', () => {
    const path = 'a/b/c/d/file.ts';
    expect(pathArea(path, 1)).toBe('a');
    expect(pathArea(path, 2)).toBe('a/b');
    expect(pathArea(path, 3)).toBe('a/b/c');
  });
});

describe('Function: countFileKinds', () => {
  it('counts each kind, zero for kinds not present', () => {
    // Act
    const counts = countFileKinds([
      'src/a.ts',
      'src/b.ts',
      'src/a.test.ts',
      'README.md',
      'progress.txt',
    ]);

    // Assess
    expect(counts).toEqual({ source: 2, test: 1, doc: 1, config: 0, other: 1 });
  });
});
