/**
 * Ralph's `progress.txt`: the memory that one iteration leaves for the next. The layout is
 * snarktank/ralph's, so a file Ralph (or a person) wrote keeps working:
 *
 * ```
 * # Ralph Progress Log
 * Started: 2025-01-10T09:00:00.000Z
 * ---
 *
 * ## Codebase Patterns
 * - Use `sql<number>` for aggregations
 *
 * ## 2025-01-10 14:30 - US-001
 * - Added the priority column
 * - Files changed: db/schema.ts, db/migrations/002.sql
 * - **Learnings for future iterations:**
 *   - Run `npm run db:generate` after a schema change
 * ---
 * ```
 *
 * Reading is tolerant (no header, CRLF, `*` bullets, headings in any case); writing keeps
 * the file's own line endings. Dates are written in UTC.
 */

export const PROGRESS_TITLE = '# Ralph Progress Log';
const PATTERNS_HEADING = '## Codebase Patterns';

export interface ProgressEntry {
  at: Date;
  storyId: string;
  /** What was implemented; each line becomes a bullet. */
  summary: string;
  filesChanged: readonly string[];
  learnings: readonly string[];
}

/**
 * The header Ralph writes when it starts a log.
 *
 * @example
 * await writeFile('progress.txt', newProgressLog(clock.now()));
 */
export function newProgressLog(startedAt: Date): string {
  return `${PROGRESS_TITLE}\nStarted: ${startedAt.toISOString()}\n---\n`;
}

/**
 * Appends one iteration's entry at the end of the log.
 *
 * @example
 * text = appendProgressEntry(text, { at, storyId: 'US-001', summary, filesChanged, learnings });
 */
export function appendProgressEntry(text: string, entry: ProgressEntry): string {
  const { lines, eol } = splitLines(text);
  while (lines.length > 0 && (lines.at(-1) ?? '').trim() === '') lines.pop();

  const summary = entry.summary
    .split(/\r?\n/)
    .map(oneLine)
    .filter((line) => line !== '');
  const files = entry.filesChanged.map(oneLine).filter((file) => file !== '');
  const learnings = entry.learnings.map(oneLine).filter((learning) => learning !== '');

  const block = [
    `## ${formatEntryDate(entry.at)} - ${oneLine(entry.storyId)}`,
    ...(summary.length > 0 ? summary : ['(no summary given)']).map((line) => `- ${line}`),
    `- Files changed: ${files.length > 0 ? files.join(', ') : '(none)'}`,
    ...(learnings.length > 0
      ? [
          '- **Learnings for future iterations:**',
          ...learnings.map((learning) => `  - ${learning}`),
        ]
      : []),
    '---',
  ];
  const out = lines.length > 0 ? [...lines, '', ...block] : block;
  return joinLines(out, eol);
}

/**
 * Adds reusable learnings to the `## Codebase Patterns` section at the top of the log,
 * creating it right after the header when missing. Exact duplicates are skipped.
 *
 * @example
 * text = addCodebasePatterns(text, ['Run migrations with `npm run db:migrate`']);
 */
export function addCodebasePatterns(text: string, patterns: readonly string[]): string {
  const existing = new Set(codebasePatterns(text));
  const fresh: string[] = [];
  for (const pattern of patterns.map(oneLine)) {
    if (pattern === '' || existing.has(pattern)) continue;
    existing.add(pattern);
    fresh.push(pattern);
  }
  if (fresh.length === 0) return text;

  const { lines, eol } = splitLines(text);
  const bullets = fresh.map((pattern) => `- ${pattern}`);
  const section = findPatternsSection(lines);
  if (section) {
    // After the section's last non-blank line, so a blank separator before the next entry stays.
    let at = section.end;
    while (at > section.start + 1 && (lines[at - 1] ?? '').trim() === '') at -= 1;
    lines.splice(at, 0, ...bullets);
    return joinLines(lines, eol);
  }

  const at = headerEnd(lines);
  const before = lines.slice(0, at);
  const after = lines.slice(at);
  while (after.length > 0 && (after[0] ?? '').trim() === '') after.shift();
  const inserted = [
    ...(before.length > 0 ? [''] : []),
    PATTERNS_HEADING,
    ...bullets,
    ...(after.length > 0 ? [''] : []),
  ];
  return joinLines([...before, ...inserted, ...after], eol);
}

/**
 * The bullets of the `## Codebase Patterns` section, nested ones included, without their
 * markers; empty when there is no such section.
 */
export function codebasePatterns(text: string): string[] {
  const { lines } = splitLines(text);
  const section = findPatternsSection(lines);
  if (!section) return [];
  const patterns: string[] = [];
  for (const line of lines.slice(section.start + 1, section.end)) {
    const bullet = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    const value = bullet ? oneLine(bullet[1] ?? '') : '';
    if (value !== '') patterns.push(value);
  }
  return patterns;
}

/**
 * The last `n` iteration entries, oldest first, each as its text from the `## ` heading
 * to the line before its closing `---` (line endings normalised to `\n`).
 */
export function recentEntries(text: string, n: number): string[] {
  if (n <= 0) return [];
  const { lines } = splitLines(text);
  const entries: string[] = [];
  let current: string[] | undefined;
  let fenced = false;
  const close = () => {
    if (current) {
      while (current.length > 0 && (current.at(-1) ?? '').trim() === '') current.pop();
      entries.push(current.join('\n'));
    }
    current = undefined;
  };
  for (const line of lines) {
    if (isFence(line)) fenced = !fenced;
    if (!fenced && isLevelTwoHeading(line)) {
      close();
      if (!isPatternsHeading(line)) current = [line];
    } else if (!fenced && isRule(line)) close();
    else current?.push(line);
  }
  close();
  return entries.slice(-n);
}

/**
 * The periodic archive (design §5: progress.txt must not grow without bound): the entries
 * before the last `keepRecent` move out; the header, the Codebase Patterns section and the
 * recent entries stay, in their order. `archived` is empty when there is nothing to move.
 *
 * @example
 * const { kept, archived } = archiveProgress(text, 3);
 * if (archived !== '') { await store(archived); await writeFile(path, kept); }
 */
export function archiveProgress(
  text: string,
  keepRecent: number,
): { kept: string; archived: string; moved: number } {
  const { lines, eol } = splitLines(text);
  // Each line's entry index, or -1 for the header and the patterns section.
  const owner: number[] = [];
  let entry = -1;
  let inEntry = false;
  let fenced = false;
  for (const line of lines) {
    if (isFence(line)) fenced = !fenced;
    if (!fenced && isLevelTwoHeading(line)) {
      inEntry = !isPatternsHeading(line);
      if (inEntry) entry += 1;
    }
    owner.push(inEntry ? entry : -1);
    // An entry ends with its rule; what follows until the next heading is loose text.
    if (!fenced && inEntry && isRule(line)) inEntry = false;
  }
  const total = entry + 1;
  const cut = total - Math.max(0, keepRecent);
  if (cut <= 0) return { kept: text, archived: '', moved: 0 };
  const kept = lines.filter((_, index) => (owner[index] ?? -1) < 0 || (owner[index] ?? 0) >= cut);
  const archived = lines.filter(
    (_, index) => (owner[index] ?? -1) >= 0 && (owner[index] ?? 0) < cut,
  );
  return { kept: joinLines(kept, eol), archived: joinLines(archived, eol), moved: cut };
}

/**
 * Why progress.txt is archived after this iteration, if it is: every `everyIterations`
 * (periodic), or at once when it has grown past `maxBytes` (the output size check).
 *
 * @example
 * progressArchiveReason({ iteration: 7, bytes: 90_000 }, { everyIterations: 10, maxProgressBytes: 65_536 }); // 'size'
 */
export function progressArchiveReason(
  progress: { iteration: number; bytes: number },
  settings: { everyIterations: number; maxProgressBytes: number },
): 'periodic' | 'size' | undefined {
  if (progress.iteration % settings.everyIterations === 0) return 'periodic';
  if (progress.bytes > settings.maxProgressBytes) return 'size';
  return undefined;
}

/** `YYYY-MM-DD HH:MM` in UTC, as in Ralph's entry headings. */
export function formatEntryDate(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

interface Section {
  /** The heading's line. */
  start: number;
  /** The first line after the section. */
  end: number;
}

function findPatternsSection(lines: readonly string[]): Section | undefined {
  let fenced = false;
  for (let start = 0; start < lines.length; start += 1) {
    const line = lines[start] ?? '';
    if (isFence(line)) fenced = !fenced;
    if (fenced || !isPatternsHeading(line)) continue;
    let end = start + 1;
    let inner = false;
    for (; end < lines.length; end += 1) {
      const next = lines[end] ?? '';
      if (isFence(next)) inner = !inner;
      if (!inner && (isLevelTwoHeading(next) || isRule(next))) break;
    }
    return { start, end };
  }
  return undefined;
}

/**
 * Where the header block ends: a `# ` title and the lines right under it (`Started: ...`)
 * through the first `---`. 0 when the file has no title.
 */
function headerEnd(lines: readonly string[]): number {
  let at = 0;
  while (at < lines.length && (lines[at] ?? '').trim() === '') at += 1;
  if (!/^#\s/.test(lines[at] ?? '')) return 0;
  at += 1;
  while (at < lines.length) {
    const line = lines[at] ?? '';
    if (line.trim() === '' || isLevelTwoHeading(line)) break;
    at += 1;
    if (isRule(line)) break;
  }
  return at;
}

function isLevelTwoHeading(line: string): boolean {
  return /^##\s/.test(line);
}

function isPatternsHeading(line: string): boolean {
  return /^##\s+codebase patterns\s*:?\s*$/i.test(line.trim());
}

function isRule(line: string): boolean {
  return /^-{3,}\s*$/.test(line);
}

function isFence(line: string): boolean {
  return /^\s*(```|~~~)/.test(line);
}

/** One bullet's worth of text: no line breaks, no leading marker, no outer spaces. */
function oneLine(text: string): string {
  return text
    .replace(/\s*\r?\n\s*/g, ' ')
    .trim()
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
    .trim();
}

function splitLines(text: string): { lines: string[]; eol: string } {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  // A trailing newline yields one empty last element; joinLines puts the newline back.
  if (lines.at(-1) === '') lines.pop();
  return { lines, eol };
}

function joinLines(lines: readonly string[], eol: string): string {
  return lines.length === 0 ? '' : `${lines.join(eol)}${eol}`;
}
