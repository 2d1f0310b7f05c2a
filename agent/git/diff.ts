/** Changes as paths and patches: what the index holds beyond a commit, or between two. */
import { git, gitBytes, type Repo } from './command.js';
import { pathspecs } from './staging.js';

/** The user's diff settings (external tools, text conversion, prefixes, colour) overridden. */
const PATCH_OPTIONS = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];
const NUL_NUL = Buffer.from([0, 0]);

/**
 * What the index holds beyond `base`, outside `exclude`, from one git process: the paths
 * (renames under their new name) and the patch (with `binary`, one `git apply` replays
 * exactly). `--numstat -z` lists the paths unquoted, NUL-terminated, and an empty record
 * ends the list before the patch starts: two processes (`--name-only`, then the patch)
 * cost twice the spawn, which in a large process is most of the call.
 */
export async function stagedChange(
  repo: Repo,
  base: string,
  exclude: readonly string[] = [],
  options: { binary?: boolean } = {},
): Promise<{ files: string[]; patch: Uint8Array }> {
  const out = await gitBytes(repo, [
    'diff',
    ...PATCH_OPTIONS,
    ...(options.binary ? ['--binary'] : []),
    '--numstat',
    '--patch',
    '-z',
    '--cached',
    base,
    '--',
    ...pathspecs(exclude),
  ]);
  return splitNumstatPatch(out);
}

/**
 * `--numstat -z --patch` output into paths and patch. A record is `added TAB deleted TAB
 * path NUL`, or for a rename `added TAB deleted TAB NUL from NUL to NUL`; NUL NUL (the
 * empty record) separates the list from the patch. No changes: no output at all.
 */
function splitNumstatPatch(out: Buffer): { files: string[]; patch: Uint8Array } {
  const end = out.indexOf(NUL_NUL);
  const list = end === -1 ? out : out.subarray(0, end + 1);
  const patch = end === -1 ? new Uint8Array() : out.subarray(end + 2);
  const fields = list.toString('utf8').split('\0');
  const files: string[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? '';
    if (field === '') continue;
    const path = field.slice(field.indexOf('\t', field.indexOf('\t') + 1) + 1);
    if (path !== '') files.push(path);
    else {
      // A rename: the next two fields are its old and new names.
      const to = fields[i + 2];
      if (to !== undefined && to !== '') files.push(to);
      i += 2;
    }
  }
  return { files, patch };
}

/**
 * `git diff base..head` (or, without `head`, from `base` to the index) as bytes (a file in a
 * legacy encoding must survive as it is); with `binary`, a patch that `git apply` can
 * replay exactly. The user's diff settings (external tools, prefixes, colour) are
 * overridden.
 */
export async function diff(
  repo: Repo,
  base: string,
  head: string | undefined,
  options: { binary?: boolean } = {},
): Promise<Uint8Array> {
  return gitBytes(repo, [
    'diff',
    ...PATCH_OPTIONS,
    ...(options.binary ? ['--binary'] : []),
    ...(head === undefined ? ['--cached', base] : [`${base}..${head}`]),
  ]);
}

/** Paths that differ between two commits (renames under their new name), outside `exclude`. */
export async function filesChanged(
  repo: Repo,
  base: string,
  head: string,
  exclude: readonly string[] = [],
): Promise<string[]> {
  const out = await git(repo, [
    'diff',
    '--name-only',
    '-z',
    `${base}..${head}`,
    '--',
    ...pathspecs(exclude),
  ]);
  return out.split('\0').filter((path) => path !== '');
}
