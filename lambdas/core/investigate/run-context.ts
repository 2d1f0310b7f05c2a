/**
 * The run context (design: RunContext, Ralph's progress.txt within one run): what the
 * earlier errors of this run taught, for the agent on the next one — codebase patterns,
 * files examined, and the related errors with their root causes. It is capped (the route's
 * `runContextChars`, 1,500 by default) and the newest findings are kept: a later error
 * was investigated by an agent that already knew the earlier ones.
 */
import type { InvestigationResult } from '../schemas/investigation.js';

/** An earlier investigation of the run, with its error's title (from its error group). */
export interface EarlierInvestigation {
  readonly taskId: string;
  readonly title: string;
  readonly result: InvestigationResult;
}

type Section = 'patterns' | 'files' | 'errors';

const HEADINGS: Readonly<Record<Section, string>> = {
  patterns: '### Codebase patterns',
  files: '### Files examined',
  errors: '### Related errors in this run',
};
const ORDER: readonly Section[] = ['patterns', 'files', 'errors'];

/**
 * The run context as markdown, at most `maxChars` long; '' when there is nothing (or no
 * room). `earlier` is oldest first; items are taken newest first until the next would not
 * fit, each kept once.
 *
 * @example
 * runContext([{ taskId: 'ERR-1', title: 'TypeError', result }], 1500)
 * // '### Codebase patterns\n- prices are cents\n\n### Files examined\n- src/cart.js\n…'
 */
export function runContext(earlier: readonly EarlierInvestigation[], maxChars: number): string {
  const kept: Record<Section, string[]> = { patterns: [], files: [], errors: [] };
  let text = '';
  for (const [section, item] of newestFirst(earlier)) {
    if (kept[section].includes(item)) continue;
    kept[section].push(item);
    const next = render(kept);
    if (next.length > maxChars) {
      kept[section].pop();
      // A shorter item further on may still fit; the rest of this one's are older.
      continue;
    }
    text = next;
  }
  return text;
}

/** Every item of every earlier investigation, the newest investigation's first. */
function* newestFirst(earlier: readonly EarlierInvestigation[]): Generator<[Section, string]> {
  for (const { taskId, title, result } of [...earlier].reverse()) {
    const chosen = result.passes.find((pass) => pass.pass === result.chosenPass);
    const analysis = chosen?.analysis;
    const rootCause = analysis
      ? `${oneLine(analysis.rootCause)} (confidence ${analysis.confidence})`
      : 'no analysis';
    yield ['errors', `- ${taskId} "${oneLine(title)}": ${rootCause}; ${result.verdict}`];
    for (const pattern of analysis?.patternsDiscovered ?? [])
      yield ['patterns', `- ${oneLine(pattern)}`];
    for (const file of analysis?.filesExamined ?? []) yield ['files', `- ${oneLine(file)}`];
  }
}

function render(kept: Readonly<Record<Section, readonly string[]>>): string {
  return ORDER.filter((section) => kept[section].length > 0)
    .map((section) => `${HEADINGS[section]}\n${kept[section].join('\n')}`)
    .join('\n\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
