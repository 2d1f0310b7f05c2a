/**
 * A convergence check in one sentence, for people (the iteration's summary, the live line,
 * `ralph show`): the rules that decide it, with their numbers.
 */
import type {
  ConvergenceCheck,
  ConvergenceCheckName,
  ConvergenceReason,
} from '../schemas/analysis/checks.js';

/** The rules a converged verdict is stated by; the others are conditions of the window. */
export const HEADLINE_CHECKS: readonly ConvergenceCheckName[] = [
  'cheapThreshold',
  'gapThreshold',
  'minSpearman',
  'minQwk',
];

/**
 * Why the check holds or does not, in words. Converged: the headline rules with the
 * window's weakest figures; not: each failed rule with the number that failed it (a reason
 * shared by two rules, as too few artefacts is, said once), then the headline rules that
 * held. A check stored before reasons were kept names its failed checks.
 *
 * @example
 * describeConvergence(check, 2);
 * // 'ρ 0.30 < 0.6, QWK 0.00 < 0.6 (cheap ≥ 4.0 held, |gap| ≤ 0.5 held)'
 */
export function describeConvergence(check: ConvergenceCheck, stableIterations: number): string {
  const { checks, reasons } = check;
  if (checks === null) return `fewer than ${stableIterations} evaluated iterations to compare`;
  const headline = HEADLINE_CHECKS.flatMap((name) => {
    const reason = reasons[name];
    return reason ? [{ name, ...reason }] : [];
  });
  if (check.converged) {
    const count = check.evidence?.iterationsChecked.length ?? stableIterations;
    const over = `over ${count} iteration${count === 1 ? '' : 's'}`;
    return headline.length > 0
      ? `${headline.map((entry) => entry.reason).join(', ')} ${over}`
      : `every check held ${over}`;
  }
  const failed = check.failed.map((name) =>
    name === 'insufficient_iterations' ? name : (reasons[name]?.reason ?? name),
  );
  const held = headline
    .filter((entry) => checks[entry.name] === true)
    .map((entry: ConvergenceReason) => `${entry.rule} held`);
  return `${[...new Set(failed)].join(', ')}${held.length > 0 ? ` (${held.join(', ')})` : ''}`;
}
