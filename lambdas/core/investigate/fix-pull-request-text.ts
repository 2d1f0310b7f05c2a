/**
 * The words of what an investigate run leaves on the code host: the fix's pull request
 * (title and body) and, without a verified fix, the issue comment that carries the analysis.
 * Pure: everything comes from the runner's report and the error as its batch closed.
 */
import type { GateResult } from '../schemas/gate-result.js';
import type { InvestigationResult } from '../schemas/investigation.js';
import { passFigures } from './pass-figures.js';

/** GitHub keeps titles to 256 characters; a shorter one reads in a list. */
const TITLE_CHARS = 100;
/** GitHub refuses a body over 65,536 characters. */
const BODY_CHARS = 60_000;

/** The error as the pull request names it. */
export interface ErrorDescription {
  title: string;
  /** Where a person looks at it (the sender's page). */
  link?: string;
  culprit?: string;
}

export interface FixPullRequestText {
  runId: string;
  error: ErrorDescription;
  investigation: InvestigationResult;
}

/** @example fixPullRequestTitle('TypeError: x is undefined') // 'fix: TypeError: x is undefined' */
export function fixPullRequestTitle(errorTitle: string): string {
  const title = `fix: ${oneLine(errorTitle)}`;
  return title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1)}…` : title;
}

/**
 * The pull request's body: the error, the root cause and its confidence, the passes (and
 * whether a second pass or a correction was needed), the gates before and after the fix,
 * tokens and cost, and which run opened it.
 */
export function fixPullRequestBody(text: FixPullRequestText): string {
  const { investigation } = text;
  return bounded(
    [
      ...errorSection(text),
      ...analysisSection(investigation),
      ...(investigation.fix === undefined
        ? []
        : [`**The fix:** ${investigation.summary || 'see the diff'}`, '']),
      ...passesSection(investigation),
      ...gatesSection(investigation),
      ...costSection(investigation),
      '---',
      `Opened by ralph-cloud's investigate run \`${text.runId}\`. It is a draft: review it before merging.`,
    ].join('\n'),
  );
}

/** The issue comment for an error without a verified fix: the analysis and why no fix. */
export function analysisCommentBody(text: FixPullRequestText): string {
  const { investigation } = text;
  return bounded(
    [
      ...errorSection(text),
      `**No pull request:** ${whyNoFix(investigation)}`,
      '',
      ...analysisSection(investigation),
      ...passesSection(investigation),
      ...(investigation.verdict === 'fix-failed-gates' ? gatesSection(investigation) : []),
      ...costSection(investigation),
      '---',
      `Analysed by ralph-cloud's investigate run \`${text.runId}\`.`,
    ].join('\n'),
  );
}

/** Why an investigation has no pull request, in a sentence. */
export function whyNoFix(investigation: InvestigationResult): string {
  if (investigation.verdict === 'no-fix')
    return `no pass made a fix${investigation.summary ? `: ${investigation.summary}` : ''}`;
  if (investigation.verdict === 'fix-failed-gates') {
    const broken = investigation.broken.length > 0 ? investigation.broken.join(', ') : 'a gate';
    const corrected = investigation.correction.attempted
      ? ', and the correction did not mend it'
      : '';
    return `the fix broke ${broken}${corrected}`;
  }
  return 'the fix was verified';
}

function errorSection({ error, investigation }: FixPullRequestText): string[] {
  const name = error.link === undefined ? error.title : `[${error.title}](${error.link})`;
  return [
    '## Error',
    '',
    `${name} (${investigation.source}, fingerprint \`${investigation.fingerprint}\`)`,
    ...(error.culprit === undefined ? [] : [`at \`${error.culprit}\``]),
    '',
  ];
}

function analysisSection(investigation: InvestigationResult): string[] {
  const { analysis } = passFigures(investigation);
  if (analysis === undefined)
    return ['## Root cause', '', 'No pass wrote a readable analysis.', ''];
  return [
    '## Root cause',
    '',
    analysis.rootCause,
    '',
    `**Confidence:** ${analysis.confidence}`,
    '',
    ...(analysis.filesExamined.length === 0
      ? []
      : [
          `**Files examined:** ${analysis.filesExamined.map((file) => `\`${file}\``).join(', ')}`,
          '',
        ]),
    ...(analysis.suggestedNextSteps.length === 0
      ? []
      : [
          '**Suggested next steps:**',
          ...analysis.suggestedNextSteps.map((step) => `- ${step}`),
          '',
        ]),
  ];
}

function passesSection(investigation: InvestigationResult): string[] {
  const figures = passFigures(investigation);
  const { correction } = investigation;
  const notes = [
    figures.secondPass
      ? `${figures.analysisPasses} analysis passes: the first was not enough, a fresh agent went on from its findings.`
      : 'One analysis pass was enough.',
    correction.attempted
      ? `A correction pass was needed (the fix broke a gate): it ${correction.succeeded ? 'mended it' : 'did not mend it'}.`
      : 'No correction was needed.',
  ];
  return [
    '## Passes',
    '',
    ...notes,
    '',
    '| pass | kind | confidence | files changed |',
    '| --- | --- | --- | --- |',
    ...investigation.passes.map(
      (pass) =>
        `| ${pass.pass}${pass.pass === investigation.chosenPass ? ' (kept)' : ''} | ${pass.kind} | ${pass.analysis?.confidence ?? '—'} | ${pass.changedFiles.length} |`,
    ),
    '',
  ];
}

function gatesSection(investigation: InvestigationResult): string[] {
  const names = [
    ...new Set(
      [...investigation.gatesBefore, ...investigation.gatesAfter].map((gate) => gate.name),
    ),
  ];
  if (names.length === 0) return ['## Gates', '', 'The project has no gates.', ''];
  const verdict = (gates: readonly GateResult[], name: string) => {
    const gate = gates.find((candidate) => candidate.name === name);
    if (gate === undefined) return '—';
    return gate.passed ? 'passed' : gate.timedOut ? 'timed out' : 'failed';
  };
  return [
    '## Gates',
    '',
    '| gate | before the fix | after |',
    '| --- | --- | --- |',
    ...names.map(
      (name) =>
        `| ${cell(name)} | ${verdict(investigation.gatesBefore, name)} | ${verdict(investigation.gatesAfter, name)} |`,
    ),
    '',
  ];
}

function costSection(investigation: InvestigationResult): string[] {
  const { tokens, costUsd } = passFigures(investigation);
  return [
    '## Tokens and cost',
    '',
    `${tokens.input.toLocaleString('en-US')} input and ${tokens.output.toLocaleString('en-US')} output tokens, $${costUsd.toFixed(2)}`,
    '',
  ];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cell(text: string): string {
  return oneLine(text).replaceAll('|', '\\|');
}

function bounded(body: string): string {
  return body.length > BODY_CHARS
    ? `${body.slice(0, BODY_CHARS - 30)}\n\n… (cut to fit GitHub)`
    : body;
}
