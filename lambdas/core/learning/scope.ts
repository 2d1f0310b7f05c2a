/**
 * Where a lesson applies: a hint's files become a rule's scope pattern (learned-rules.md:
 * "*.py" or "auth/*.py"), and a rule whose pattern matches no file of the repository any
 * more is skipped when a prompt is rendered. Globs are the small common kind: `**` (any
 * folders), `*` (within a name), `?` (one character).
 */

/**
 * The scope prefix of a group of files: `<folder>/**` when they share a first folder, else
 * `**\/*.<ext>` when they share an extension, else undefined (the whole repository).
 *
 * @example
 * scopePatternOf(['src/a.ts', 'src/lib/b.ts']); // 'src/**'
 * scopePatternOf(['a.py', 'tools/b.py']);       // '**\/*.py'
 */
export function scopePatternOf(paths: readonly string[]): string | undefined {
  const normal = paths.map(normalPath);
  if (normal.length === 0) return undefined;
  const folders = new Set(normal.map((path) => (path.includes('/') ? path.split('/')[0] : '')));
  const [folder] = folders;
  if (folders.size === 1 && folder) return `${folder}/**`;
  const extensions = new Set(normal.map((path) => /\.([A-Za-z0-9]+)$/.exec(path)?.[1] ?? ''));
  const [extension] = extensions;
  if (extensions.size === 1 && extension) return `**/*.${extension}`;
  return undefined;
}

/** Whether `path` matches `glob`; an absent glob matches every path. */
export function matchesScope(glob: string | undefined, path: string): boolean {
  return glob === undefined || globRegex(glob).test(normalPath(path));
}

/** Whether any of `paths` matches `glob`. */
export function scopeMatchesAny(glob: string | undefined, paths: readonly string[]): boolean {
  if (glob === undefined) return true;
  const regex = globRegex(glob);
  return paths.some((path) => regex.test(normalPath(path)));
}

const compiled = new Map<string, RegExp>();

function globRegex(glob: string): RegExp {
  let regex = compiled.get(glob);
  if (regex) return regex;
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] ?? '';
    if (char === '*' && glob[i + 1] === '*') {
      // `**/` is any folders, none included; a trailing `**` is anything below.
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  regex = new RegExp(`^${source}$`);
  compiled.set(glob, regex);
  return regex;
}

/**
 * Whether two sets of paths are in the same place: one shares a first folder with the
 * other (files at the root share the root). Either empty: nothing is known, so they are.
 */
export function sameScope(left: readonly string[], right: readonly string[]): boolean {
  if (left.length === 0 || right.length === 0) return true;
  const top = (path: string) => {
    const normal = normalPath(path);
    return normal.includes('/') ? normal.split('/')[0] : '';
  };
  const folders = new Set(left.map(top));
  return right.some((path) => folders.has(top(path)));
}

/** `/`-separated, without a leading `./`: how git and globs name a path. */
function normalPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '');
}
