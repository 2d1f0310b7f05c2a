import { figure, percent, signed, withinThreshold } from './figures.js';

type Figure = number | null;

/** An artefact whose two scores lie further apart than the gap threshold. */
export interface LargeGap {
  artefactId: string;
  expensive: number;
  cheap: number;
  gap: number;
  /** What the judge held against it (its first weakness), when it said. */
  judgeNote?: string;
}

/**
 * What the "Iteration N Results" block shows, whatever it was computed from: an in-memory
 * evaluation (`ralph eval`) or an iteration's stored log (`ralph show --iteration N`).
 * Sections left out are not printed.
 */
export interface ResultsView {
  title: string;
  thresholds: { gap: number; cheap: number };
  expensive?: {
    average: Figure;
    judged: number;
    failed: number;
    unreliable: boolean;
    /** Why and how the judge was re-run, when it was. */
    rerun?: string;
    /** Tokens and cost, in words. */
    cost?: string;
  };
  cheap?: {
    average: Figure;
    /** Share of the scored artefacts at least one pattern matched. */
    patternMatch: Figure;
    patterns?: { active: number; provisional: number; version: number };
  };
  gap?: {
    gap: Figure;
    /** Change since the previous iteration; `undefined` where there is no previous one. */
    delta?: Figure;
    mae: Figure;
    spearman: Figure;
    qwk: Figure;
    coverage: Figure;
    large: LargeGap[];
    /** Artefacts left out of every figure because the judge failed on them. */
    judgeFailed: string[];
  };
  learning?: {
    proposed: number;
    committed: number;
    rejected: number;
    pruned: number;
    merged: number;
    rolledBackTo?: number;
    /** Why the rollback happened (the regression's triggers), in words. */
    rollbackReason?: string;
    nextVersion: number;
    /** Why the proposer ran or not, in its words. */
    proposer?: string;
  };
  health?: { component: string; healthy: boolean; flags: string[] }[];
  /** Lines saying whether and why the gap diverges. */
  divergence?: string[];
  /** Lines naming each recovery action taken. */
  actions?: string[];
  convergence?: {
    converged: boolean;
    checks: { label: string; held: boolean }[];
    /** Why convergence does not hold, in words (also when there were no checks yet). */
    summary: string;
  };
  decision?: string;
}

/**
 * The design document's "Iteration N Results" block (Metrics Dashboard).
 *
 * @example
 * console.log(renderResultsBlock(resultsFromOutcome('Evaluation Results', outcome, config)));
 */
export function renderResultsBlock(view: ResultsView): string {
  const lines = [`=== ${view.title} ===`, ''];
  const sections = [
    expensiveSection(view),
    cheapSection(view),
    gapSection(view),
    learningSection(view),
    healthSection(view),
    listSection('DIVERGENCE:', view.divergence),
    listSection('ACTIONS TAKEN:', view.actions),
    convergenceSection(view),
  ].filter((section) => section.length > 0);
  for (const section of sections) lines.push(...section, '');
  if (view.decision) lines.push(`DECISION: ${view.decision}`);
  else lines.pop();
  return lines.join('\n');
}

function expensiveSection({ expensive }: ResultsView): string[] {
  if (!expensive) return [];
  const total = expensive.judged + expensive.failed;
  const lines = [
    'EXPENSIVE MODE:',
    `  Gestalt avg: ${figure(expensive.average)}`,
    `  Evaluated: ${expensive.judged} ok, ${expensive.failed} failed (${percent(total === 0 ? null : expensive.failed / total)})${expensive.unreliable ? ' — UNRELIABLE' : ''}`,
  ];
  if (expensive.rerun) lines.push(`  Re-run: ${expensive.rerun}`);
  if (expensive.cost) lines.push(`  Cost: ${expensive.cost}`);
  return lines;
}

function cheapSection({ cheap }: ResultsView): string[] {
  if (!cheap) return [];
  const lines = [
    'CHEAP MODE:',
    `  Gestalt avg: ${figure(cheap.average)}`,
    `  Pattern match: ${percent(cheap.patternMatch)} of artefacts`,
  ];
  if (cheap.patterns)
    lines.push(
      `  Patterns: ${cheap.patterns.active} active, ${cheap.patterns.provisional} provisional (set v${cheap.patterns.version})`,
    );
  return lines;
}

function gapSection({ gap, thresholds }: ResultsView): string[] {
  if (!gap) return [];
  const held = gap.gap === null ? '' : withinThreshold(gap.gap, thresholds.gap) ? ' ✓' : ' ✗';
  const lines = [
    'GAP ANALYSIS:',
    `  Gap: ${figure(gap.gap)} (target: <= ${thresholds.gap})${held}`,
  ];
  if (gap.delta !== undefined)
    lines.push(
      `  Delta: ${gap.delta === null ? '— (no previous gap)' : `${signed(gap.delta)} since the previous iteration`}`,
    );
  lines.push(
    `  Agreement: MAE ${figure(gap.mae)}, Spearman ${figure(gap.spearman)}, QWK ${figure(gap.qwk)}, coverage ${percent(gap.coverage)}`,
  );
  if (gap.large.length > 0) {
    lines.push('', `  Artefacts with large gap (> ${thresholds.gap}):`);
    for (const pair of gap.large) {
      lines.push(
        `    - ${pair.artefactId}: exp=${figure(pair.expensive, 1)}, cheap=${figure(pair.cheap, 1)} (gap=${figure(pair.gap, 1)})`,
      );
      if (pair.judgeNote) lines.push(`      Judge: ${pair.judgeNote}`);
    }
  }
  if (gap.judgeFailed.length > 0)
    lines.push(`  Left out (judge failed): ${gap.judgeFailed.join(', ')}`);
  return lines;
}

function learningSection({ learning }: ResultsView): string[] {
  if (!learning) return [];
  const lines = [
    'PATTERN LEARNING:',
    `  Proposed ${learning.proposed}, committed ${learning.committed}, rejected ${learning.rejected}, pruned ${learning.pruned}, merged ${learning.merged}`,
    `  Rolled back to: ${
      learning.rolledBackTo === undefined
        ? 'no (no regression)'
        : `v${learning.rolledBackTo}${learning.rollbackReason ? ` (${learning.rollbackReason})` : ''}`
    }`,
    `  Next iteration scores with: v${learning.nextVersion}`,
  ];
  if (learning.proposer) lines.push(`  Proposer: ${learning.proposer}`);
  return lines;
}

function healthSection({ health }: ResultsView): string[] {
  if (!health) return [];
  return [
    'COMPONENT HEALTH:',
    ...health.map(
      (component) =>
        `  ${component.healthy ? '✓' : '✗'} ${component.component}${component.flags.length > 0 ? `: ${component.flags.join(', ')}` : ''}`,
    ),
  ];
}

function listSection(heading: string, entries: string[] | undefined): string[] {
  if (!entries) return [];
  return [heading, ...(entries.length === 0 ? ['none'] : entries).map((entry) => `  ${entry}`)];
}

function convergenceSection({ convergence }: ResultsView): string[] {
  if (!convergence) return [];
  return [
    'CONVERGENCE:',
    ...convergence.checks.map((check) => `  ${check.held ? '✓' : '✗'} ${check.label}`),
    `  ${convergence.converged ? 'Converged ✓' : convergence.summary}`,
  ];
}
