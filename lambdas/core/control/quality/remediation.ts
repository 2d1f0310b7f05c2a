/**
 * A prompt section per failed quality gate (design section 3.9 `remediation`), chosen by
 * the gate's kind, with its output tail. A blocking gate is worded as a condition of the
 * change counting; an advisory one as a request limited to the code the agent touched.
 */
import { z } from 'zod';
import type { GateResult } from '../../schemas/gate-result.js';
import type { PromptTemplates } from '../../prompts/templates.js';
import { GATE_KINDS, gateKind, GateKindSchema, type GateKind } from './gate-kind.js';
import { stripAnsi } from '../../tool-output/lines.js';
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

/**
 * What to do about each kind of failure, and what not to do to make the gate pass:
 * `prompts/templates/remediation-<kind>.md`.
 */
export function remediationGuidance(templates: PromptTemplates): Record<GateKind, string> {
  return Object.fromEntries(
    GATE_KINDS.map((kind) => [kind, templates.render(`remediation-${kind}`, {})]),
  ) as Record<GateKind, string>;
}

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
  templates: PromptTemplates,
  options: RemediationOptionsInput = {},
): string {
  if (gate.passed) return '';
  const settings = RemediationOptionsSchema.parse(options);
  const kind = gateKind(gate.name, settings.gateKinds);
  const output = tail(gate.outputTail, settings);
  const section = templates.render('remediation-gate', {
    gate: inlineCode(gate.name),
    title: templates.render(`remediation-${kind}-title`, {}),
    blocking: gate.blocking,
    guidance: templates.render(`remediation-${kind}`, {}),
    timedOut: gate.timedOut,
    seconds: gate.durationMs ? String(Math.round(gate.durationMs / 1000)) : undefined,
    signal: gate.exitCode === null,
    exitCode: gate.exitCode,
    output: output ? codeBlock(output) : undefined,
  });
  return `${section}\n`;
}

/**
 * One prompt section for every failed gate, blocking ones first; empty when none failed.
 *
 * @example
 * remediationPrompt(result.gates, templates) // '## Quality gates to fix\n\n### Gate `tests`: failing tests (blocking)...'
 */
export function remediationPrompt(
  gates: readonly FailedGate[],
  templates: PromptTemplates,
  options: RemediationOptionsInput = {},
): string {
  const failed = gates.filter((gate) => !gate.passed);
  if (failed.length === 0) return '';
  const ordered = [...failed.filter((g) => g.blocking), ...failed.filter((g) => !g.blocking)];
  const blocking = failed.filter((g) => g.blocking).length;
  const section = templates.render('section-remediation', {
    blocking,
    plural: blocking > 1,
    gates: ordered.map((gate) => remediationSection(gate, templates, options)).join('\n'),
  });
  return `${section}\n`;
}

function tail(output: string, options: RemediationOptions): string {
  const lines = stripAnsi(output)
    .replace(/\s+$/, '')
    .split('\n')
    .slice(-options.maxOutputLines)
    .join('\n');
  return lines.length <= options.maxOutputChars ? lines : lines.slice(-options.maxOutputChars);
}
