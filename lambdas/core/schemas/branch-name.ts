/**
 * Whether a name can be a git branch, by the rules of `git check-ref-format --branch`, so a
 * prd.json whose `branchName` git would refuse is refused up front with the reason, not at
 * every iteration with a raw git error.
 */

/** Characters git refuses anywhere in a ref name (control characters are checked apart). */
const FORBIDDEN = /[\s~^:?*[\\]/;

/** Whether `name` holds an ASCII control character (below space, or DEL). */
const hasControlCharacter = (name: string): boolean =>
  [...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/**
 * What is wrong with `name` as a branch name, or undefined when git would take it.
 *
 * @example
 * branchNameProblem('ralph/my feature') // 'contains a space or control character, or one of ~ ^ : ? * [ \\'
 */
export function branchNameProblem(name: string): string | undefined {
  if (name.startsWith('-')) return 'starts with "-"';
  if (FORBIDDEN.test(name) || hasControlCharacter(name))
    return 'contains a space or control character, or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'contains ".."';
  if (name.includes('@{')) return 'contains "@{"';
  if (name === '@') return 'is "@"';
  if (name.endsWith('/') || name.endsWith('.')) return 'ends with "/" or "."';
  if (name.startsWith('/') || name.includes('//')) return 'has an empty path component';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `has a component starting with "." (${part})`;
    if (part.endsWith('.lock')) return `has a component ending with ".lock" (${part})`;
  }
  return undefined;
}
