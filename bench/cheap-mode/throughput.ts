/**
 * Throughput: artefacts scored per second on one thread, in rounds of at least a given
 * wall time, after a warm-up round; per wall-clock second and per second of this process's
 * CPU time.
 */
import { evaluateCheap } from '../../lambdas/core/cheap/evaluate.js';
import type { CompiledPatterns } from '../../lambdas/core/cheap/types.js';
import type { Artefact } from '../../lambdas/core/schemas/evaluation.js';
import { median } from '../../lambdas/core/shared/stats.js';

const WARM_UP_MS = 1500;

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface Throughput {
  /** Artefacts per wall-clock second, one entry per round. */
  rounds: number[];
  /** Artefacts per second of this process's CPU time, one entry per round. */
  cpuRounds: number[];
  wall: Spread;
  cpu: Spread;
}

export interface Rounds {
  rounds: number;
  /** Each round scores artefacts for at least this long. */
  minRoundMs: number;
}

const spread = (values: readonly number[]): Spread => ({
  median: median(values) ?? Number.NaN,
  min: Math.min(...values),
  max: Math.max(...values),
});

/** A measurement not taken (`--skip-baseline`): every figure NaN. */
export const NOT_MEASURED: Throughput = {
  rounds: [],
  cpuRounds: [],
  wall: { median: NaN, min: NaN, max: NaN },
  cpu: { median: NaN, min: NaN, max: NaN },
};

let sink = 0; // keeps the results alive, so no work can be optimised away

/**
 * One round: score artefacts (cycling through the corpus) for at least `minMs` of wall
 * time. Returns artefacts per wall second and per CPU second: the second leaves out the
 * time other processes had the core, and counts the garbage collector's helper threads.
 */
function round(
  documents: readonly Artefact[],
  compiled: CompiledPatterns,
  minMs: number,
): [wall: number, cpu: number] {
  let scored = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let elapsed = 0;
  do {
    // Check the clock every 32 artefacts: often enough, and too rarely to cost anything.
    for (let k = 0; k < 32; k += 1) {
      sink += evaluateCheap(documents[scored % documents.length]!, compiled).gestalt;
      scored += 1;
    }
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  const cpu = process.cpuUsage(cpuStart);
  return [(scored / elapsed) * 1000, (scored / (cpu.user + cpu.system)) * 1e6];
}

export function measure(
  documents: readonly Artefact[],
  compiled: CompiledPatterns,
  { rounds: count, minRoundMs }: Rounds,
): Throughput {
  // Warm-up: the JIT tiers up over the first second or so (rounds kept rising within it).
  // A warm Lambda container scores hundreds of artefacts on the same compiled code.
  round(documents, compiled, WARM_UP_MS);
  const results = Array.from({ length: count }, () => round(documents, compiled, minRoundMs));
  const rounds = results.map(([wall]) => wall);
  const cpuRounds = results.map(([, cpu]) => cpu);
  return { rounds, cpuRounds, wall: spread(rounds), cpu: spread(cpuRounds) };
}

/** Using the results keeps the work from being optimised away; a NaN would be a bug. */
export function assertScoresUsed(): void {
  if (Number.isNaN(sink)) throw new Error('a gestalt was not a number');
}

export function time<T>(work: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = work();
  return { value, ms: performance.now() - start };
}
