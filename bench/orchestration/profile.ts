/** Profile: where the overhead goes, per iteration, from the probes' records. */
import { LOOP_STATES, stepWindow, type Interval, type LoopStateName } from './loop-steps.js';
import { portCalls, spawns } from './probes.js';
import type { Measured } from './measured-run.js';
import { round } from './statistics.js';

export type Kind = 'DynamoDB' | 'S3' | 'git' | 'agent' | 'other';
const KINDS: readonly Kind[] = ['DynamoDB', 'S3', 'git', 'agent', 'other'];

export interface ProfileRow {
  step: LoopStateName;
  kind: Kind;
  /** A port method or a git subcommand; empty for a kind's subtotal. */
  call: string;
  /** Requests or subprocesses per iteration (an S3 put is a HeadObject and a PutObject). */
  perIteration: number;
  msPerIteration: number;
}

export interface TraceEntry {
  step: LoopStateName;
  atMs: number;
  ms: number;
  call: string;
}

interface Call {
  kind: Kind;
  call: string;
  nested: boolean;
  interval: Interval;
}

/** Port calls and subprocesses that started inside `window`, in order. */
function callsIn(window: Interval): Call[] {
  const inside = (interval: Interval) =>
    interval.start >= window.start && interval.start <= window.end;
  return [
    ...portCalls.filter(inside).map((call) => ({
      kind: (call.label.startsWith('runs.') ? 'DynamoDB' : 'S3') as Kind,
      call: call.label,
      nested: call.nested,
      interval: call,
    })),
    ...spawns.filter(inside).map((spawned) => ({
      kind: (spawned.label.startsWith('git ') ? 'git' : 'agent') as Kind,
      call: spawned.label,
      nested: false,
      interval: spawned,
    })),
  ].sort((a, b) => a.interval.start - b.interval.start);
}

/**
 * Mean per iteration, by step and kind (subtotals, `call` empty) and by call. Time is
 * counted for top-level calls only (a refused put's read-back is inside the put's time),
 * requests for every call. Calls made side by side each count their whole time, so a
 * kind's time can exceed its step's; `other` is the step's time with no call in flight:
 * JavaScript (zod, middy, prompt), the file system, the event loop.
 */
export function profileOf(measurements: readonly Measured[]): ProfileRow[] {
  const totals = new Map<string, ProfileRow>();
  let iterations = 0;
  const add = (step: LoopStateName, kind: Kind, call: string, count: number, ms: number) => {
    const key = `${step}\0${kind}\0${call}`;
    const row = totals.get(key) ?? { step, kind, call, perIteration: 0, msPerIteration: 0 };
    row.perIteration += count;
    row.msPerIteration += ms;
    totals.set(key, row);
  };
  for (const { samples, steps } of measurements) {
    for (const sample of samples) {
      iterations += 1;
      for (const state of LOOP_STATES) {
        const window = stepWindow(steps, state, sample.iteration);
        if (!window) continue;
        const calls = callsIn(window);
        for (const { kind, call, nested, interval } of calls) {
          const ms = nested ? 0 : interval.end - interval.start;
          add(state, kind, '', 1, ms);
          add(state, kind, call, 1, ms);
        }
        const busy = unionMs(calls.map((call) => clip(call.interval, window)));
        add(state, 'other', '', 0, window.end - window.start - busy);
      }
    }
  }
  return [...totals.values()]
    .map((row) => ({
      ...row,
      perIteration: row.perIteration / Math.max(1, iterations),
      msPerIteration: row.msPerIteration / Math.max(1, iterations),
    }))
    .sort(
      (a, b) =>
        LOOP_STATES.indexOf(a.step) - LOOP_STATES.indexOf(b.step) ||
        KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) ||
        (a.call === '' ? -1 : 0) - (b.call === '' ? -1 : 0) ||
        b.msPerIteration - a.msPerIteration,
    );
}

export function clip(interval: Interval, window: Interval): Interval {
  return {
    start: Math.max(interval.start, window.start),
    end: Math.min(interval.end, window.end),
  };
}

/** How long at least one of `intervals` was open. */
export function unionMs(intervals: readonly Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  let total = 0;
  let open: Interval | undefined;
  for (const interval of sorted) {
    if (open && interval.start <= open.end) open.end = Math.max(open.end, interval.end);
    else {
      if (open) total += open.end - open.start;
      open = { ...interval };
    }
  }
  return total + (open ? open.end - open.start : 0);
}

/** Time per kind of call over one iteration's loop steps (top-level calls only). */
export function kindsOf(measured: Measured | undefined, iteration: number): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const state of LOOP_STATES) {
    const window = measured && stepWindow(measured.steps, state, iteration);
    if (!window) continue;
    for (const { kind, nested, interval } of callsIn(window))
      if (!nested) totals[kind] = (totals[kind] ?? 0) + interval.end - interval.start;
  }
  return Object.fromEntries(Object.entries(totals).map(([kind, ms]) => [kind, round(ms, 2)]));
}

/** Every call of one iteration, in order, with its offset from the step's start. */
export function traceOf(measured: Measured, iteration: number): TraceEntry[] {
  return LOOP_STATES.flatMap((state) => {
    const window = stepWindow(measured.steps, state, iteration);
    if (!window) return [];
    return callsIn(window).map(({ call, nested, interval }) => ({
      step: state,
      atMs: round(interval.start - window.start, 2),
      ms: round(interval.end - interval.start, 2),
      call: nested ? `  ${call} (inside the call above)` : call,
    }));
  });
}
