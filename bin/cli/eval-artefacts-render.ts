import Table from 'cli-table3';
import type { evaluateArtefacts } from '../../lambdas/core/steps/evaluate-artefacts.js';
import { tableStyle } from './table-style.js';
import { terminalSafe } from './terminal-text.js';

type Outcome = Awaited<ReturnType<typeof evaluateArtefacts>>;

/** A cheap result's defects, one per line: `atomic: "traffic flow and reduce congestion"`. */
function defectLines(cheap: NonNullable<Outcome['cheap']>[number]): string {
  return (
    cheap.defects
      .map(
        (defect) =>
          `${defect.criterion}: "${defect.evidence}"${defect.relatedId ? ` (as ${defect.relatedId})` : ''}`,
      )
      .join('\n') || '—'
  );
}

/**
 * One row per artefact: both scores and their gap, the cheap mode's QUS defects with the
 * words that show each, the other reasons and patterns behind its score, and the judge's
 * first weakness.
 *
 * @example
 * output.line(perArtefactTable(outcome));
 */
export function perArtefactTable(outcome: Outcome): string {
  const table = new Table({
    head: [
      'artefact',
      'expensive',
      'cheap',
      'gap',
      'defects (cheap)',
      'reasons / patterns',
      'judge',
    ],
    style: tableStyle(),
    colWidths: [16, 11, 7, 7, 34, 24, 36],
    wordWrap: true,
  });
  const judged = new Map(
    (outcome.expensive?.final.results ?? []).map((judged) => [judged.result.artefactId, judged]),
  );
  const cheapById = new Map((outcome.cheap ?? []).map((result) => [result.artefactId, result]));
  const ids = outcome.cheap?.map((result) => result.artefactId) ?? [...judged.keys()];
  for (const id of ids) {
    const cheap = cheapById.get(id);
    const judge = judged.get(id)?.result;
    const expensive =
      judge === undefined ? '—' : judge.status === 'ok' ? judge.gestalt.toFixed(1) : 'failed';
    const gap = judge?.status === 'ok' && cheap ? (judge.gestalt - cheap.gestalt).toFixed(1) : '—';
    const reasons = cheap?.reasons.filter((reason) => !reason.startsWith('defect:')) ?? [];
    table.push(
      [
        id,
        expensive,
        cheap ? cheap.gestalt.toFixed(1) : '—',
        gap,
        cheap ? defectLines(cheap) : '—',
        reasons.join(', ') || '—',
        judge === undefined
          ? '—'
          : judge.status === 'ok'
            ? (judge.weaknesses[0] ?? judge.strengths[0] ?? '')
            : judge.error,
      ].map((cell) => terminalSafe(cell)),
    );
  }
  return table.toString();
}
