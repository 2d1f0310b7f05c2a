/**
 * A prompt section per failed quality gate (design section 3.9 `remediation`), chosen by
 * the gate's kind, with its output tail. A blocking gate is worded as a condition of the
 * change counting; an advisory one as a request limited to the code the agent touched.
 */
import { z } from 'zod';
import type { GateResult } from '../../schemas/gate-result.js';
import { gateKind, GateKindSchema, type GateKind } from './gate-kind.js';
import { stripAnsi } from '../retry/text.js';
import { codeBlock, inlineCode } from './markdown.js';

export const RemediationOptionsSchema = z.object({
  /** Gate name → kind, where the name does not say. */
  gateKinds: z.record(z.string(), GateKindSchema).default({}),
  /** The output shown is cut to its last lines (the full output is in gates.json). */
  maxOutputLines: z.number().int().positive().default(40),
  maxOutputChars: z.number().int().positive().default(4000),
});
export type RemediationOptions = z.infer<typeof RemediationOptionsSchema>;
export type RemediationOptionsInput = z.input<typeof RemediationOptionsSchema>;

type FailedGate = Pick<
  GateResult,
  'name' | 'blocking' | 'passed' | 'exitCode' | 'timedOut' | 'outputTail'
> &
  Partial<Pick<GateResult, 'durationMs'>>;

/** What to do about each kind of failure, and what not to do to make the gate pass. */
export const REMEDIATION_GUIDANCE: Record<GateKind, string> = {
  typecheck:
    'Fix the type errors below at their source, starting with the first one (later errors often follow from it). Do not silence them with `any`, `@ts-ignore`, casts or by loosening the compiler settings.',
  tests:
    "Read each failing test and what it expects, then change the implementation to meet it. Change a test only when it contradicts the story's acceptance criteria, and say so in progress.txt. Do not skip, delete or weaken tests.",
  lint: 'Fix the reported problems in the code. Do not disable rules (`eslint-disable`, `#[allow]`, `# noqa`) or edit the linter configuration to make them pass.',
  security:
    'Remove the vulnerability the scanner reports: validate the input, upgrade or replace the vulnerable dependency, take the secret out of the code. Do not suppress or baseline the finding.',
  other: 'Make this check pass; its output below says what it found.',
};

const TITLES: Record<GateKind, string> = {
  typecheck: 'type errors',
  tests: 'failing tests',
  lint: 'lint problems',
  security: 'security findings',
  other: 'check failed',
};

/**
 * The remediation section for one gate: empty when the gate passed.
 *
 * @example
 * remediationSection({ name: 'typecheck', blocking: true, passed: false, exitCode: 2,
 *   timedOut: false, outputTail: "src/a.ts(3,7): error TS2322: ..." })
 * // '### Gate `typecheck`: type errors (blocking)\n\n...'
 */
export function remediationSection(
  gate: FailedGate,
  options: RemediationOptionsInput = {},
): string {
  if (gate.passed) return '';
  const settings = RemediationOptionsSchema.parse(options);
  const kind = gateKind(gate.name, settings.gateKinds);
  const lines = [
    `### Gate ${inlineCode(gate.name)}: ${TITLES[kind]} (${gate.blocking ? 'blocking' : 'advisory'})`,
    '',
    gate.blocking
      ? 'This gate is blocking: your change does not count until it passes.'
      : 'This gate is advisory: it does not stop your change from counting. Fix what it reports in the code you changed; leave the rest.',
    REMEDIATION_GUIDANCE[kind],
    '',
    gate.timedOut
      ? `It timed out${gate.durationMs ? ` after ${Math.round(gate.durationMs / 1000)} s` : ''}: look for a hang first (an endless loop, a test waiting for input, a server or timer left open).`
      : `It exited with code ${gate.exitCode ?? 'none (killed by a signal)'}.`,
  ];
  const output = tail(gate.outputTail, settings);
  if (output) lines.push('', `Output (last lines):`, '', codeBlock(output));
  else lines.push('', 'It printed nothing.');
  return `${lines.join('\n')}\n`;
}

/**
 * One prompt section for every failed gate, blocking ones first; empty when none failed.
 *
 * @example
 * remediationPrompt(result.gates) // '## Quality gates to fix\n\n### Gate `tests`: failing tests (blocking)...'
 */
export function remediationPrompt(
  gates: readonly FailedGate[],
  options: RemediationOptionsInput = {},
): string {
  const failed = gates.filter((gate) => !gate.passed);
  if (failed.length === 0) return '';
  const ordered = [...failed.filter((g) => g.blocking), ...failed.filter((g) => !g.blocking)];
  const blocking = failed.filter((g) => g.blocking).length;
  const intro =
    blocking > 0
      ? `${blocking} blocking gate${blocking === 1 ? '' : 's'} failed: fix ${blocking === 1 ? 'it' : 'them'} before anything else.`
      : 'Only advisory gates failed: the change can count, but fix what they report in the code you changed.';
  return [
    '## Quality gates to fix',
    '',
    intro,
    '',
    ...ordered.map((gate) => remediationSection(gate, options)),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}

function tail(output: string, options: RemediationOptions): string {
  const lines = stripAnsi(output)
    .replace(/\s+$/, '')
    .split('\n')
    .slice(-options.maxOutputLines)
    .join('\n');
  return lines.length <= options.maxOutputChars ? lines : lines.slice(-options.maxOutputChars);
}
