/**
 * The per-file shape quality enforcement reads (`ChangedFile`: path, lines added and
 * removed, created or not) from the patch the runner already holds (`git diff --patch`,
 * with or without `--binary`), so no second git process is needed for `--numstat`. Each
 * file's section is counted by `diffStats`, the same reading of hunks the observation uses.
 */
import { diffStats } from '../../shared/diff-stats.js';
import type { ChangedFile } from './enforce.js';

const SECTION_START = 'diff --git ';
/** Extended header lines (before the first `---` or hunk) that say what the change did. */
const CREATED = /^new file mode /;
const BINARY = /^(?:GIT binary patch|Binary files .* differ)$/;
const MAX_HEADER_LINES = 12;

/**
 * One entry per file section of a unified git diff, in the diff's order. A binary file has
 * no line counts; a deleted file is named by its old path; a renamed one by its new path.
 *
 * @example
 * changedFiles('diff --git a/src/a.ts b/src/a.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n')
 * // [{ path: 'src/a.ts', added: 2, removed: 0, created: true }]
 */
export function changedFiles(patch: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  for (const section of sections(patch)) {
    const header = headerLines(section);
    const stats = diffStats(section);
    const path = stats.files[0];
    if (path === undefined) continue;
    const created = header.some((line) => CREATED.test(line));
    files.push(
      header.some((line) => BINARY.test(line))
        ? { path, created }
        : { path, added: stats.addedLines, removed: stats.removedLines, created },
    );
  }
  return files;
}

/** The patch cut at each `diff --git` line (hunk lines never start with it). */
function sections(patch: string): string[] {
  const starts: number[] = [];
  if (patch.startsWith(SECTION_START)) starts.push(0);
  for (let at = patch.indexOf(`\n${SECTION_START}`); at >= 0;) {
    starts.push(at + 1);
    at = patch.indexOf(`\n${SECTION_START}`, at + 1);
  }
  return starts.map((start, index) => patch.slice(start, starts[index + 1] ?? patch.length));
}

/**
 * A section's extended header: its lines before the `---` line, the first hunk or the
 * binary data (git writes at most eight: modes, similarity, renames, index, binary).
 */
function headerLines(section: string): string[] {
  const lines: string[] = [];
  for (let start = 0; start < section.length && lines.length < MAX_HEADER_LINES;) {
    const end = section.indexOf('\n', start);
    const line = section.slice(start, end < 0 ? section.length : end);
    if (line.startsWith('--- ') || line.startsWith('@@')) break;
    lines.push(line);
    if (BINARY.test(line) || end < 0) break;
    start = end + 1;
  }
  return lines;
}
