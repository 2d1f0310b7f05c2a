/**
 * The offline judge's change rubric: the four criteria of the change rubric (implements
 * the story, tests, gate results, scope), scored 1–5 from the diff, the files changed and
 * the gate results the judge prompt shows.
 */
import type { JudgeAnswer } from '../../lambdas/core/schemas/evaluation.js';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';
import { answerFrom, clampHalf, type Criterion } from './judge-answer.js';
import { clipText, quote, unique } from './text.js';

/** A change as the judge prompt shows it. */
export interface OfflineChange {
  acceptanceCriteria: string[];
  gates: Pick<GateResult, 'name' | 'blocking' | 'passed' | 'timedOut'>[];
  filesChanged: string[];
  diff: string;
}

/**
 * Scores a change on the change rubric's four criteria.
 *
 * @example
 * judgeChangeOffline({ acceptanceCriteria: ['Export returns CSV'], gates: [], filesChanged: ['src/export.ts'], diff });
 */
export function judgeChangeOffline(change: OfflineChange): JudgeAnswer {
  const criteria = [implementsOf(change), testsOf(change), gatesOf(change), changeScopeOf(change)];
  return answerFrom('this change', criteria);
}

/** Words too common to show that a diff implements a criterion. */
const STOP_WORDS = new Set([
  'about',
  'above',
  'after',
  'again',
  'against',
  'before',
  'being',
  'below',
  'between',
  'could',
  'every',
  'other',
  'should',
  'their',
  'there',
  'these',
  'those',
  'through',
  'under',
  'until',
  'where',
  'which',
  'while',
  'would',
  'users',
  'shown',
  'given',
  'least',
  'without',
  'within',
]);
const TEST_FILE =
  /(?:^|\/)(?:test|tests|__tests__|spec)\/|\.(?:test|spec)\.[cm]?[jt]sx?$|_test\.(?:go|py)$|(?:^|\/)test_[\w-]+\.py$/;
const TEST_CASE = /^\+.*(?:\b(?:it|test|describe)\(|\bdef test_|\bfunc Test)/m;

function implementsOf(change: OfflineChange): Criterion {
  if (change.diff.trim() === '')
    return { name: 'implements the story', score: 1, notes: ['the iteration changed nothing'] };
  const added = change.diff
    .split('\n')
    .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
    .join('\n')
    .toLowerCase();
  const haystack = `${added}\n${change.filesChanged.join('\n').toLowerCase()}`;
  const judged = change.acceptanceCriteria
    .map((ac) => ({ ac, keywords: keywordsOf(ac) }))
    .filter((entry) => entry.keywords.length > 0);
  if (judged.length === 0)
    return {
      name: 'implements the story',
      score: 3,
      notes: ['no criteria to check the diff against'],
    };
  const missing = judged.filter((entry) => !entry.keywords.some((word) => haystack.includes(word)));
  const covered = judged.length - missing.length;
  const notes = [`${covered} of ${judged.length} criteria have their key terms in the added lines`];
  if (missing.length > 0)
    notes.push(`no trace of ${missing.map((entry) => quote(clipText(entry.ac, 60))).join(', ')}`);
  return {
    name: 'implements the story',
    score: clampHalf(1 + (4 * covered) / judged.length),
    notes,
  };
}

function testsOf(change: OfflineChange): Criterion {
  if (change.diff.trim() === '') return { name: 'tests', score: 1, notes: ['no change to test'] };
  const testFiles = change.filesChanged.filter((file) => TEST_FILE.test(file));
  const addsCases = TEST_CASE.test(change.diff);
  if (testFiles.length > 0 && addsCases)
    return {
      name: 'tests',
      score: 5,
      notes: [`adds test cases in ${quote(testFiles[0] as string)}`],
    };
  if (testFiles.length > 0)
    return { name: 'tests', score: 4, notes: [`touches tests ${quote(testFiles[0] as string)}`] };
  if (addsCases) return { name: 'tests', score: 4, notes: ['adds test cases'] };
  return { name: 'tests', score: 2, notes: ['no tests added or changed'] };
}

function gatesOf(change: OfflineChange): Criterion {
  if (change.gates.length === 0)
    return { name: 'gate results', score: 3, notes: ['no gates recorded'] };
  const blockingFailed = change.gates.filter(
    (gate) => gate.blocking && (!gate.passed || gate.timedOut),
  );
  if (blockingFailed.length > 0)
    return {
      name: 'gate results',
      score: 1,
      notes: [`blocking gate failed: ${blockingFailed.map((gate) => quote(gate.name)).join(', ')}`],
    };
  const advisoryFailed = change.gates.filter((gate) => !gate.passed || gate.timedOut);
  if (advisoryFailed.length > 0)
    return {
      name: 'gate results',
      score: 4,
      notes: [`advisory gate failed: ${advisoryFailed.map((gate) => quote(gate.name)).join(', ')}`],
    };
  return { name: 'gate results', score: 5, notes: [`all ${change.gates.length} gates passed`] };
}

function changeScopeOf(change: OfflineChange): Criterion {
  const files = change.filesChanged.length;
  if (change.diff.trim() === '') return { name: 'scope', score: 1, notes: ['nothing changed'] };
  let score = files <= 6 ? 5 : files <= 12 ? 4 : files <= 25 ? 3 : 2;
  const notes = [`${files} files changed`];
  const changedLines = change.diff
    .split('\n')
    .filter((line) => /^[+-]/.test(line) && !/^(?:\+\+\+|---)/.test(line)).length;
  if (changedLines > 1500) {
    score -= 1;
    notes.push(`${changedLines} lines changed`);
  }
  return { name: 'scope', score: clampHalf(score), notes };
}

function keywordsOf(text: string): string[] {
  return unique(
    (text.toLowerCase().match(/[a-z][a-z0-9_]{4,}/g) ?? []).filter((word) => !STOP_WORDS.has(word)),
  );
}
