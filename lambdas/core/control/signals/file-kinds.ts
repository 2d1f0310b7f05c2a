/**
 * What kind of file a changed path is (source, test, doc, config, other) and which "area"
 * of the repository it lies in: the file-level dimensions of semantic progress tracking
 * (design §3.1: source/test/doc files modified, exploration breadth).
 */
import { z } from 'zod';

export const FILE_KINDS = ['source', 'test', 'doc', 'config', 'other'] as const;
export const FileKindSchema = z.enum(FILE_KINDS);
export type FileKind = z.infer<typeof FileKindSchema>;

/** Directory levels that make an area: `lambdas/core/control/x.ts` → `lambdas/core`. */
export const DEFAULT_AREA_DEPTH = 2;
/** The area of a file at the repository root. */
export const ROOT_AREA = '.';

/**
 * Ralph's own bookkeeping (the runner restores them after every agent run): editing them is
 * neither code nor documentation work.
 */
const BOOKKEEPING_NAMES = new Set(['progress.txt', 'prd.json', '.last-branch']);

/**
 * Test conventions: a `test/`, `tests/`, `__tests__/`, `spec/` or `specs/` directory at any
 * depth; `*.test.*` / `*.spec.*`; Go `*_test.go`; Python `test_*.py`, `*_test.py` and
 * `conftest.py`; Ruby `*_spec.rb`.
 */
const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|specs?)\/|\.(?:test|spec)\.[^/]+$|_test\.go$|(?:^|\/)test_[^/]*\.py$|_test\.py$|(?:^|\/)conftest\.py$|_spec\.rb$/;

/** Documentation: a `docs/` or `doc/` directory, or prose formats. */
const DOC_DIR = /(?:^|\/)docs?\//;
const DOC_EXTENSIONS = new Set(['md', 'mdx', 'markdown', 'rst', 'adoc', 'asciidoc', 'txt']);
/** Extension-less prose files conventionally at a repository's root. */
const DOC_NAMES =
  /^(?:readme|changelog|changes|license|licence|copying|authors|contributing|notice)$/i;

/** Build, package and tool configuration, by name. */
const CONFIG_NAMES =
  /^(?:dockerfile|containerfile|makefile|gnumakefile|justfile|procfile|cmakelists\.txt|go\.mod|go\.sum|gemfile|gemfile\.lock|pipfile|pipfile\.lock|requirements(?:[-_.][^/]*)?\.txt|constraints\.txt|\.gitignore|\.gitattributes|\.npmrc|\.nvmrc|\.node-version|\.editorconfig|\.dockerignore|\.prettierignore|\.eslintignore|\.env(?:\.[^/]*)?)$/i;
/** `vite.config.ts`, `.eslintrc.cjs`, `.prettierrc`, `babel.config.json`, ... */
const CONFIG_PATTERN = /\.config\.[cm]?[jt]s$|^\.[\w-]+rc(?:\.[^/]*)?$/i;
const CONFIG_DIR = /(?:^|\/)\.(?:github|circleci|gitlab|husky|vscode|devcontainer)\//;
const CONFIG_EXTENSIONS = new Set([
  'json',
  'jsonc',
  'json5',
  'yaml',
  'yml',
  'toml',
  'ini',
  'cfg',
  'conf',
  'properties',
  'lock',
  'tf',
  'tfvars',
  'hcl',
  'gradle',
  'csproj',
  'sln',
]);

const SOURCE_EXTENSIONS = new Set([
  ...['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'vue', 'svelte', 'astro'],
  ...['py', 'pyi', 'go', 'rs', 'java', 'kt', 'kts', 'scala', 'groovy', 'clj', 'cljs'],
  ...['rb', 'php', 'pl', 'pm', 'lua', 'r', 'jl', 'dart', 'swift', 'm', 'mm'],
  ...['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'cs', 'fs', 'vb', 'zig', 'nim'],
  ...['ex', 'exs', 'erl', 'hrl', 'hs', 'ml', 'mli', 'elm', 'sol'],
  ...['sh', 'bash', 'zsh', 'fish', 'ps1', 'sql', 'graphql', 'gql', 'proto'],
  ...['html', 'htm', 'css', 'scss', 'sass', 'less'],
]);

/**
 * A repository path in one spelling: forward slashes, no leading `./`, no doubled or
 * trailing slashes.
 *
 * @example
 * normalisePath('.\\src\\a.ts') // 'src/a.ts'
 */
export function normalisePath(path: string): string {
  let out = path
    .trim()
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/');
  while (out.startsWith('./')) out = out.slice(2);
  return out.length > 1 ? out.replace(/\/$/, '') : out;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * The kind of a file. Rules apply in order, first match wins: Ralph's bookkeeping files →
 * other; test conventions → test (so `test/fixtures/a.md` is a test); `docs/`, prose
 * formats (`*.txt` too, except `requirements*.txt` and `CMakeLists.txt`) → doc; build and
 * tool configuration → config; program text → source; anything else (images, data) → other.
 *
 * @example
 * classifyPath('lambdas/core/prd.ts')      // 'source'
 * classifyPath('test/unit/prd.test.ts')    // 'test'
 * classifyPath('docs/architecture.md')     // 'doc'
 * classifyPath('tsconfig.json')            // 'config'
 * classifyPath('progress.txt')             // 'other'
 */
export function classifyPath(path: string): FileKind {
  const normalised = normalisePath(path);
  const name = baseName(normalised);
  const ext = extension(name);
  if (BOOKKEEPING_NAMES.has(name)) return 'other';
  if (TEST_PATH.test(normalised)) return 'test';
  if (CONFIG_NAMES.test(name)) return 'config';
  if (DOC_DIR.test(normalised) || DOC_EXTENSIONS.has(ext) || DOC_NAMES.test(name)) return 'doc';
  if (CONFIG_DIR.test(normalised) || CONFIG_PATTERN.test(name) || CONFIG_EXTENSIONS.has(ext))
    return 'config';
  if (SOURCE_EXTENSIONS.has(ext)) return 'source';
  return 'other';
}

/**
 * The area a path lies in: its first `depth` directory levels (fewer when the path is
 * shallower), `.` for a file at the root. Used to tell focused work from scattered work.
 *
 * @example
 * pathArea('lambdas/core/control/signals/file-kinds.ts') // 'lambdas/core'
 * pathArea('src/index.ts')                               // 'src'
 * pathArea('README.md')                                  // '.'
 */
export function pathArea(path: string, depth: number = DEFAULT_AREA_DEPTH): string {
  const directories = normalisePath(path)
    .split('/')
    .slice(0, -1)
    .filter((part) => part !== '');
  const area = directories.slice(0, Math.max(0, depth)).join('/');
  return area === '' ? ROOT_AREA : area;
}

/**
 * How many of the paths are of each kind.
 *
 * @example
 * countFileKinds(['src/a.ts', 'src/a.test.ts']) // { source: 1, test: 1, doc: 0, config: 0, other: 0 }
 */
export function countFileKinds(paths: readonly string[]): Record<FileKind, number> {
  const counts: Record<FileKind, number> = { source: 0, test: 0, doc: 0, config: 0, other: 0 };
  for (const path of paths) counts[classifyPath(path)] += 1;
  return counts;
}
