/**
 * What a unified diff (`git diff` output) changed: the files, the lines added and
 * removed, and the added text. Hunk headers give each hunk's line counts, so a removed
 * line that happens to start with `--` is never taken for a file header.
 */

export interface DiffStats {
  /** Paths touched (new path of a rename; old path of a deletion), in order of appearance. */
  readonly files: readonly string[];
  readonly addedLines: number;
  readonly removedLines: number;
  /** The added lines without their `+`, one per line: what the change put in. */
  readonly addedText: string;
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** `b/path`, `"b/path with spaces"`, `path\t2024-01-01` → `path`; `/dev/null` → undefined. */
function headerPath(raw: string): string | undefined {
  let path = raw.split('\t')[0]!.trim();
  if (path.startsWith('"') && path.endsWith('"')) path = path.slice(1, -1);
  if (path === '/dev/null' || path === '') return undefined;
  return /^[ab]\//.test(path) ? path.slice(2) : path;
}

/**
 * Parses a unified diff.
 *
 * @example
 * diffStats('diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n')
 * // { files: ['x.ts'], addedLines: 1, removedLines: 1, addedText: 'b\n' }
 */
export function diffStats(diff: string): DiffStats {
  const files = new Set<string>();
  let addedLines = 0;
  let removedLines = 0;
  let addedText = '';
  let oldLeft = 0;
  let newLeft = 0;
  let oldPath: string | undefined;

  for (let start = 0; start < diff.length;) {
    let end = diff.indexOf('\n', start);
    if (end < 0) end = diff.length;
    const line = diff.slice(start, end);
    start = end + 1;

    if (oldLeft > 0 || newLeft > 0) {
      const c = line.charAt(0);
      if (c === '+') {
        addedLines += 1;
        newLeft -= 1;
        addedText += `${line.slice(1)}\n`;
      } else if (c === '-') {
        removedLines += 1;
        oldLeft -= 1;
      } else if (c !== '\\') {
        // Context (' ', or an empty line where a tool stripped the trailing space).
        oldLeft -= 1;
        newLeft -= 1;
      }
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLeft = Number(hunk[1] ?? 1);
      newLeft = Number(hunk[2] ?? 1);
    } else if (line.startsWith('diff --git ')) {
      // `diff --git a/old b/new`: the new path follows the last " b/".
      const at = line.lastIndexOf(' b/');
      const path = at < 0 ? undefined : headerPath(line.slice(at + 1));
      if (path !== undefined) files.add(path);
    } else if (line.startsWith('--- ')) oldPath = headerPath(line.slice(4));
    else if (line.startsWith('+++ ')) {
      // A deletion's new side is /dev/null: the old path is the file touched.
      const path = headerPath(line.slice(4)) ?? oldPath;
      if (path !== undefined) files.add(path);
    }
  }
  return { files: [...files], addedLines, removedLines, addedText };
}
