/** What git says about a working tree: whether it is one, and what changed in it. */
import { realpath } from 'node:fs/promises';
import { git, type GitOptions, type Repo } from './command.js';

/** True when `repo.dir` is the top of a git working tree (not merely somewhere inside one). */
export async function isRepository(repo: Repo): Promise<boolean> {
  try {
    const top = await git(repo, ['rev-parse', '--show-toplevel']);
    return (await realpath(top)) === (await realpath(repo.dir));
  } catch {
    return false;
  }
}

export interface StatusEntry {
  /** Two-letter porcelain code: `??` untracked, ` M` modified, `A ` added, ... */
  code: string;
  path: string;
  /** For renames and copies: where the file came from. */
  from?: string;
}

/**
 * `git status --porcelain`, one entry per file (untracked directories listed file by file),
 * paths relative to the repository root; with `paths`, only under those.
 */
export async function statusPorcelain(
  repo: Repo,
  paths?: readonly string[],
): Promise<StatusEntry[]> {
  const out = await git(repo, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    ...(paths ? ['--', ...paths.map((path) => `:(top)${path}`)] : []),
  ]);
  const fields = out.split('\0');
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? '';
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    const entry: StatusEntry = { code, path: field.slice(3) };
    // A rename or copy is followed by its source path as a field of its own.
    if (code.includes('R') || code.includes('C')) {
      entry.from = fields[i + 1];
      i += 1;
    }
    entries.push(entry);
  }
  return entries;
}

export interface RepositoryStatus {
  /** The sha HEAD points at; undefined in a repository without commits. */
  head: string | undefined;
  /** Every changed or untracked file, as `statusPorcelain` lists them. */
  entries: StatusEntry[];
}

/**
 * HEAD and the working tree's changes in one git process: `git status --porcelain=v2
 * --branch` (without the ahead/behind count, which can walk a long history). Entries are
 * those of `statusPorcelain`, with the same two-letter codes.
 */
export async function status(
  repo: Repo,
  options: Pick<GitOptions, 'topOnly'> = {},
): Promise<RepositoryStatus> {
  const out = await git(
    repo,
    ['status', '--porcelain=v2', '--branch', '--no-ahead-behind', '-z', '--untracked-files=all'],
    options,
  );
  const fields = out.split('\0');
  let head: string | undefined;
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? '';
    if (field.startsWith('# branch.oid ')) {
      const oid = field.slice('# branch.oid '.length);
      head = oid === '(initial)' ? undefined : oid;
      continue;
    }
    // `1 XY sub mH mI mW hH hI path`, `2 XY ... Xscore path` + the source path as the next
    // field, `u XY sub m1 m2 m3 mW h1 h2 h3 path`, `? path`; other headers start with `#`.
    const kind = field[0];
    const code = field.slice(2, 4).replace(/\./g, ' ');
    if (kind === '1') entries.push({ code, path: afterFields(field, 8) });
    else if (kind === 'u') entries.push({ code, path: afterFields(field, 10) });
    else if (kind === '2') {
      entries.push({ code, path: afterFields(field, 9), from: fields[i + 1] ?? '' });
      i += 1;
    } else if (kind === '?' || kind === '!')
      entries.push({ code: `${kind}${kind}`, path: field.slice(2) });
  }
  return { head, entries };
}

/** What follows the first `count` space-separated fields (a path may hold spaces). */
function afterFields(line: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n += 1) at = line.indexOf(' ', at) + 1;
  return line.slice(at);
}
