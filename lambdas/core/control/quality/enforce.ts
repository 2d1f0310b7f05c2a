/**
 * Quality settings enforced on an iteration's gates (design §3.9, settings §5.2), after the
 * gates ran and before the runner decides to commit. A gate's exit code is never overruled
 * toward passing; a gate that exited 0 fails when its output shows a test pass rate below
 * `tests.minPassRate`, or a critical / high vulnerability that `security.blockOn*` blocks.
 * What should be looked at but must not block becomes a review finding: the task goes to
 * review (InReview, design §3.4) instead of completing.
 *
 * A failed gate keeps its configured `blocking`: a blocking gate stops the commit, an
 * advisory one that failed is one more review finding.
 */
import { z } from 'zod';
import { QualitySettingsSchema, type QualitySettingsInput } from '../../schemas/control-config.js';
import { GateResultSchema, type GateResult } from '../../schemas/gate-result.js';
import { classifyPath } from '../signals/file-kinds.js';
import type { DiagnosticCounts, TestCounts } from '../../schemas/gate-counts.js';
import { SEVERITIES, type SecurityCounts, type Severity } from '../../tool-output/audit.js';
import { readToolOutput, type ToolOutputReading } from '../../tool-output/read-output.js';
import { gateKind, GateKindSchema } from './gate-kind.js';
import type { ReviewFinding } from '../../schemas/review.js';
import { ReviewFindingSchema } from '../../schemas/review.js';

const Count = z.number().int().nonnegative();

export const QualityGateInputSchema = GateResultSchema.extend({
  /** The gate's full output when the runner has it; `outputTail` is read otherwise. */
  output: z.string().optional(),
});
export type QualityGateInput = z.input<typeof QualityGateInputSchema>;

/** One changed file: `parseNumstat`'s per-file shape, plus whether the change created it. */
export const ChangedFileSchema = z.object({
  path: z.string().min(1),
  /** Undefined for a binary file. */
  added: Count.optional(),
  removed: Count.optional(),
  created: z.boolean().default(false),
});
export type ChangedFile = z.infer<typeof ChangedFileSchema>;

export const QualityInputSchema = z.object({
  gates: z.array(QualityGateInputSchema),
  /** The iteration's change (committed or about to be). */
  files: z.array(ChangedFileSchema).default([]),
  /** Gate name → kind, where the name does not say (see `gateKind`). */
  gateKinds: z.record(z.string(), GateKindSchema).default({}),
});
export type QualityInput = z.input<typeof QualityInputSchema>;

export const QualityAssessmentSchema = z.object({
  /** The gates in their order, a gate failed by a quality setting with the reason appended. */
  gates: z.array(GateResultSchema),
  findings: z.array(ReviewFindingSchema),
  /** The gates that exited 0 but failed a quality setting, and why. */
  overruled: z.array(z.object({ gate: z.string(), reason: z.string() })),
});
export type QualityAssessment = z.infer<typeof QualityAssessmentSchema>;

type Settings = z.infer<typeof QualitySettingsSchema>;

interface GateVerdict {
  /** Why a gate that exited 0 fails nonetheless. */
  failure?: string;
  findings: ReviewFinding[];
}

/** Findings are stored on the task record: long path lists are cut. */
const MAX_PATHS_NAMED = 5;

/** Marks the reason in the output tail the next prompt quotes (remediation shows the tail). */
export const ENFORCEMENT_NOTE_PREFIX = '[ralph quality]';

/**
 * The gates with the quality settings applied, and the review findings of the iteration.
 *
 * @example
 * const { gates, findings } = assessQuality({ gates: gateRuns.map((run) => ({ ...run.result, output: run.output })), files }, config.control.quality);
 * if (gates.some((gate) => gate.blocking && !gate.passed)) fail(); else pass({ review: findings.length ? { findings } : undefined });
 */
export function assessQuality(
  input: QualityInput,
  settings: QualitySettingsInput = {},
): QualityAssessment {
  const { gates, files, gateKinds } = QualityInputSchema.parse(input);
  const quality = QualitySettingsSchema.parse(settings);
  const overruled: QualityAssessment['overruled'] = [];
  const findings: ReviewFinding[] = [];
  const assessed = gates.map(({ output, ...gate }): GateResult => {
    const reading = readToolOutput(output ?? gate.outputTail);
    const verdict = judgeGate(gate, gateKind(gate.name, gateKinds), reading, quality);
    const failed = gate.passed && verdict.failure !== undefined;
    const result: GateResult = failed
      ? {
          ...gate,
          passed: false,
          outputTail: `${gate.outputTail.replace(/\n*$/, '\n')}${ENFORCEMENT_NOTE_PREFIX} ${verdict.failure}\n`,
        }
      : gate;
    if (failed && verdict.failure) overruled.push({ gate: gate.name, reason: verdict.failure });
    findings.push(
      ...verdict.findings,
      ...warningFindings(gate.name, reading.counts.diagnostics, quality),
    );
    if (!result.blocking && !result.passed)
      findings.push({
        kind: 'advisory_gate',
        gate: gate.name,
        message: `advisory gate ${gate.name} failed (${failed ? verdict.failure : howItFailed(gate)})`,
      });
    return result;
  });
  const missing = missingTestsFinding(files, quality);
  return { gates: assessed, findings: missing ? [...findings, missing] : findings, overruled };
}

function judgeGate(
  gate: GateResult,
  kind: ReturnType<typeof gateKind>,
  reading: ToolOutputReading,
  quality: Settings,
): GateVerdict {
  if (kind === 'tests') return judgeTests(gate, reading.counts.tests, quality);
  if (kind === 'security') return judgeSecurity(gate, reading.vulnerabilities, quality);
  return { findings: [] };
}

/** A pass rate below `minPassRate` fails; tolerated failures are a finding. Unknown counts change nothing. */
function judgeTests(
  gate: GateResult,
  counts: TestCounts | undefined,
  quality: Settings,
): GateVerdict {
  const passed = counts?.passed;
  const failed = counts?.failed;
  if (passed === undefined || failed === undefined || passed + failed === 0)
    return { findings: [] };
  const total = passed + failed;
  const rate = passed / total;
  const { minPassRate } = quality.tests;
  const described = `pass rate ${formatRate(rate, minPassRate)} (${passed} of ${total} tests passed)`;
  if (rate < minPassRate)
    return {
      failure: `${described} below quality.tests.minPassRate ${minPassRate}`,
      findings: [],
    };
  if (failed > 0 && gate.passed)
    return {
      findings: [
        {
          kind: 'test_failures',
          gate: gate.name,
          message: `${failed} test${failed === 1 ? '' : 's'} failed, tolerated by quality.tests.minPassRate ${minPassRate}: ${described}`,
        },
      ],
    };
  return { findings: [] };
}

/** Critical / high findings fail when their `blockOn*` says so; everything else found is a finding. */
function judgeSecurity(
  gate: GateResult,
  counts: SecurityCounts | undefined,
  quality: Settings,
): GateVerdict {
  if (!counts) return { findings: [] };
  const { blockOnCritical, blockOnHigh } = quality.security;
  const blocks: Partial<Record<Severity, string>> = {
    ...(blockOnCritical ? { critical: 'quality.security.blockOnCritical' } : {}),
    ...(blockOnHigh ? { high: 'quality.security.blockOnHigh' } : {}),
  };
  const blocking = SEVERITIES.filter((severity) => counts[severity] > 0 && blocks[severity]);
  const reported = SEVERITIES.filter((severity) => counts[severity] > 0 && !blocks[severity]);
  const findings: ReviewFinding[] =
    reported.length === 0
      ? []
      : [
          {
            kind: 'security',
            gate: gate.name,
            message: `${listCounts(reported, counts)} reported (not blocking)`,
          },
        ];
  if (blocking.length === 0) return { findings };
  return {
    failure: `${listCounts(blocking, counts)} reported; blocked by ${blocking.map((severity) => blocks[severity]).join(' and ')}`,
    findings,
  };
}

function warningFindings(
  name: string,
  diagnostics: DiagnosticCounts | undefined,
  quality: Settings,
): ReviewFinding[] {
  if (!diagnostics || diagnostics.warnings === 0) return [];
  const { warnings, tools } = diagnostics;
  const over =
    warnings > quality.warnings.max ? `, above quality.warnings.max ${quality.warnings.max}` : '';
  return [
    {
      kind: 'warnings',
      gate: name,
      message: `${warnings} warning${warnings === 1 ? '' : 's'} (${tools.join(', ')})${over}`,
    },
  ];
}

/**
 * Source lines added, or source files created, and no test file changed. A finding, not a
 * failure: a refactor or a configuration change has nothing new to test.
 */
function missingTestsFinding(
  files: readonly ChangedFile[],
  quality: Settings,
): ReviewFinding | undefined {
  if (!quality.tests.requireNewTestsForNewCode) return undefined;
  const kinds = files.map((file) => ({ file, kind: classifyPath(file.path) }));
  if (kinds.some(({ kind }) => kind === 'test')) return undefined;
  const grown = kinds
    .filter(({ file, kind }) => kind === 'source' && (file.created || (file.added ?? 0) > 0))
    .map(({ file }) => file);
  if (grown.length === 0) return undefined;
  const lines = grown.reduce((sum, file) => sum + (file.added ?? 0), 0);
  const shown = grown.slice(0, MAX_PATHS_NAMED).map((file) => file.path);
  const more = grown.length > MAX_PATHS_NAMED ? ` and ${grown.length - MAX_PATHS_NAMED} more` : '';
  return {
    kind: 'missing_tests',
    message: `${lines} source line${lines === 1 ? '' : 's'} added in ${grown.length} file${grown.length === 1 ? '' : 's'} (${shown.join(', ')}${more}) and no test file changed (quality.tests.requireNewTestsForNewCode)`,
  };
}

function listCounts(severities: readonly Severity[], counts: Record<Severity, number>): string {
  const total = severities.reduce((sum, severity) => sum + counts[severity], 0);
  const parts = severities.map((severity) => `${counts[severity]} ${severity}`).join(', ');
  return `${parts} ${total === 1 ? 'vulnerability' : 'vulnerabilities'}`;
}

function howItFailed(gate: GateResult): string {
  if (gate.timedOut) return 'timed out';
  return gate.exitCode === null ? 'killed by a signal' : `exit code ${gate.exitCode}`;
}

/** 4 decimals, or as many more as it takes for the shown rate to be on the same side of the limit. */
function formatRate(rate: number, limit: number): string {
  let digits = 4;
  while (digits < 15 && rate < limit !== Number(rate.toFixed(digits)) < limit) digits += 1;
  return String(Number(rate.toFixed(digits)));
}
