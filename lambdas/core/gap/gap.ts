/** Per-iteration gap: both averages over the same artefacts, and the change since last time. */
import type { ArtefactGap } from './pairing.js';
import { mean } from '../shared/stats.js';

export interface IterationGap {
  /** The artefacts both averages are taken over, sorted. */
  artefactIds: string[];
  expensiveAvg: number | null;
  cheapAvg: number | null;
  /** `expensiveAvg − cheapAvg`; `null` when no artefact was scored by both modes. */
  gap: number | null;
}

/**
 * The iteration's averages and gap over the artefacts both modes scored.
 *
 * @example
 * iterationGap(pairResults(cheap, expensive).pairs);
 * // { artefactIds: ['a', 'b'], expensiveAvg: 4.2, cheapAvg: 3.8, gap: 0.4 }
 */
export function iterationGap(pairs: readonly ArtefactGap[]): IterationGap {
  const expensiveAvg = mean(pairs.map((pair) => pair.expensive));
  const cheapAvg = mean(pairs.map((pair) => pair.cheap));
  return {
    artefactIds: pairs.map((pair) => pair.artefactId).sort(),
    expensiveAvg,
    cheapAvg,
    gap: expensiveAvg === null || cheapAvg === null ? null : expensiveAvg - cheapAvg,
  };
}

/**
 * `current − previous`, or `null` when there is no previous gap or either is unknown.
 *
 * @example
 * gapDelta(0.4, 0.5); // ≈ -0.1
 * gapDelta(0.4, undefined); // null
 */
export function gapDelta(
  current: number | null,
  previous: number | null | undefined,
): number | null {
  if (current === null || previous === null || previous === undefined) return null;
  return current - previous;
}
