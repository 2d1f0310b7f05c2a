/**
 * Batch ids are numbered per project (`b00000001`, `b00000002`, ...): in the order the
 * batches opened, and the same next id for every delivery that finds none open, so that the
 * store's create-once write lets only one of them open it (docs/data-model.md).
 */
const DIGITS = 8;

/** The id after `latest` (the project's newest batch), or the first. */
export function nextBatchId(latest: string | undefined): string {
  const number = latest === undefined ? 0 : Number(latest.slice(1));
  return `b${String(number + 1).padStart(DIGITS, '0')}`;
}

/** The hour runs are counted in: `2026-11-27T07` (UTC). */
export const hourOf = (now: Date): string => now.toISOString().slice(0, 13);
