/**
 * Code templates (cross-loop-learning.md, "Code Templates"): a small block of code a
 * passing change added, with its language. Apart from extractPatterns because it reads the
 * change itself (the iteration's `diff.patch`), which the run end fetches only for this.
 */
import type { IterationRecord } from '../../schemas/iteration.js';
import type { TaskCategory } from '../../schemas/learning.js';
import { diffStats } from '../../shared/diff-stats.js';
import type { PatternCandidate, RunHistory } from './candidate.js';
import { ExtractOptionsSchema, type ExtractOptionsInput } from './extract-options.js';
import { runSource } from './history-facts.js';
import { languageOf } from './languages.js';
import { templatePatternId } from './pattern-ids.js';
import { agentLesson, clip, sentence } from './pattern-text.js';
import { parseOrThrow } from '../../shared/validation.js';

/** A block shorter than this is a line or two, not a template. */
const MIN_LINES = 3;
/** A block longer than this is a feature, not a template. */
const MAX_LINES = 30;

export interface AddedBlock {
  readonly path: string;
  readonly language: string;
  /** The added lines without their `+`, common indentation removed. */
  readonly code: string;
}

/**
 * The largest block of consecutive added lines (3 to 30 of them, no removed line beside
 * them) in a file of a known language; the first of equal size. `undefined` when the
 * diff has none.
 *
 * @example
 * addedBlock(patch); // { path: 'src/guard.ts', language: 'typescript', code: 'export function …' }
 */
export function addedBlock(diff: string): AddedBlock | undefined {
  let best: AddedBlock | undefined;
  let bestLines = 0;
  for (const section of diff.split(/^(?=diff --git )/m)) {
    const path = diffStats(section).files[0];
    const language = path === undefined ? undefined : languageOf(path);
    if (path === undefined || language === undefined) continue;
    for (const hunk of section.split(/^(?=@@ )/m).slice(1)) {
      for (const lines of insertions(hunk)) {
        if (lines.length <= bestLines) continue;
        best = { path, language, code: dedent(lines) };
        bestLines = lines.length;
      }
    }
  }
  return best;
}

/**
 * A template candidate from a passing iteration's diff; `undefined` when the iteration did
 * not pass or added no block that fits.
 *
 * @example
 * templateCandidate(history, record, await artefacts.read(record.artefacts['diff.patch']), 'bugfix');
 */
export function templateCandidate(
  run: Pick<RunHistory, 'runId' | 'projectId' | 'endedAt'>,
  record: IterationRecord,
  diff: string,
  category: TaskCategory,
  options: ExtractOptionsInput = {},
): PatternCandidate | undefined {
  if (record.outcome !== 'passed') return undefined;
  const settings = parseOrThrow(ExtractOptionsSchema, options, 'pattern extraction options');
  const block = addedBlock(diff);
  if (!block) return undefined;
  const firstLine = block.code.split('\n').find((line) => line.trim() !== '') ?? block.path;
  const lesson = agentLesson(record);
  return {
    patternId: templatePatternId(block.language, block.code),
    type: 'template',
    title: clip(`${block.language}: ${firstLine.trim()}`, settings.maxTitleChars),
    body: clip(
      `${lesson ? `${sentence(lesson)} ` : ''}Added to ${block.path} by a passing change.`,
      settings.maxBodyChars,
    ),
    category,
    template: { language: block.language, code: block.code },
    tags: [block.language],
    sources: [runSource(run, [record.iteration])],
  };
}

/**
 * The hunk's insertions: runs of added lines with no removed line next to them (a run
 * beside removals rewrites code and may be a fragment of it), of a template's size.
 */
function insertions(hunk: string): string[][] {
  const body = hunk.split('\n').slice(1);
  const runs: string[][] = [];
  let run: string[] = [];
  let beside = false;
  for (const [index, line] of [...body, ''].entries()) {
    if (line.startsWith('+')) {
      if (run.length === 0) beside = body[index - 1]?.startsWith('-') ?? false;
      run.push(line.slice(1));
      continue;
    }
    const filled = run.filter((added) => added.trim() !== '').length;
    if (!beside && !line.startsWith('-') && filled >= MIN_LINES && run.length <= MAX_LINES)
      runs.push(run);
    run = [];
  }
  return runs;
}

function dedent(lines: readonly string[]): string {
  const indents = lines
    .filter((line) => line.trim() !== '')
    .map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const common = Math.min(...indents);
  return lines
    .map((line) => line.slice(common).trimEnd())
    .join('\n')
    .trim();
}
