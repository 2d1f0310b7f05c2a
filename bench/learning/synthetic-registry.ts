/**
 * A deterministic registry of N patterns as a run's learning snapshot would hold them (a
 * seeded PRNG: every run measures the same data), and the queries an iteration would ask:
 *
 * - 60% error patterns: one of the tools' error messages (error-messages.ts, Zipf: a few
 *   errors are everywhere, most are rare) with names filled in, its placeless signature as
 *   the issue, a title naming where it happened and a body of one to three fixes;
 * - 15% success patterns per task category, 10% anti-patterns, 15% code templates;
 * - bodies of 20–60 words from the user-story vocabulary and general English.
 *
 * A query is a task's title and description (the same vocabulary) and the signature of an
 * error line printed with other names and another file.
 */
import { zipf } from '../cheap-mode/inputs.js';
import { GENERAL, VERBS, WORDS } from '../cheap-mode/vocabulary.js';
import { placeless } from '../../lambdas/core/learning/issue-key.js';
import { TASK_CATEGORIES, type LearningSnapshot } from '../../lambdas/core/schemas/learning.js';
import { errorSignature } from '../../lambdas/core/tool-output/error-signature.js';
import { pick, seededRandom, type Random } from '../../test/support/seeded-random.js';
import { ERROR_MESSAGES, type ErrorMessage } from './error-messages.js';

const between = (random: Random, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1));

const PLACES = ['handler', 'service', 'module', 'page', 'job', 'client', 'store', 'worker'];
const FIXES = [
  'Import it from the module that exports it.',
  'Narrow the type before using the value.',
  'Check for undefined first and return early.',
  'Add the missing field to the interface.',
  'Convert the input at the boundary and validate it with a schema.',
  'Await the promise before asserting on its result.',
  'Install the package and add it to the dependencies.',
  'Rename the binding to match the export.',
  'Delete the unused code instead of silencing the rule.',
  'Use a fake clock rather than waiting for real time.',
  'Pass the missing argument or give the parameter a default.',
  'Wrap the call in a try block and rethrow with a cause.',
  'Split the function into smaller ones with one job each.',
  'Run the formatter on the changed files.',
  'Guard the empty case before dividing or indexing.',
];
const APPROACHES = [
  'Write the failing test first, then the smallest change that passes it.',
  'Read the existing code of the area before changing it.',
  'Keep the change to the files the story names.',
  'Run the type checker after each edit.',
  'Commit each green step.',
  'Reuse the helpers in the shared folder instead of copying them.',
  'Ask the schema for the shape of the data instead of guessing.',
];

interface Words {
  term: () => string;
  filler: () => string;
}

const camel = (a: string, b: string) => `${a}${b[0]!.toUpperCase()}${b.slice(1)}`;
const pascal = (a: string, b: string) => `${a[0]!.toUpperCase()}${camel(a, b).slice(1)}`;

/** `message` with its placeholders filled from `words`. */
function fill(random: Random, message: ErrorMessage, words: Words): string {
  const [a, b] = [words.term(), words.term()];
  return message.text
    .replaceAll('{id}', camel(a, b))
    .replaceAll('{Type}', pascal(a, b))
    .replaceAll('{py}', `${a}_${b}`)
    .replaceAll('{pkg}', `${a}-${b}`)
    .replaceAll('{n}', () => String(between(random, 1, 400)));
}

const sentence = (random: Random, words: Words, min: number, max: number): string =>
  Array.from({ length: between(random, min, max) }, () =>
    random() < 0.3 ? words.term() : words.filler(),
  ).join(' ');

function errorPattern(random: Random, words: Words, errors: () => ErrorMessage) {
  const message = errors();
  const line = fill(random, message, words);
  const fixes = Array.from({ length: between(random, 1, 3) }, () => pick(random, FIXES));
  return {
    type: 'error' as const,
    title: `${line.replace(/^\d+:\d+ error /, '').slice(0, 90)} in the ${words.term()} ${pick(random, PLACES)}`,
    body: `${fixes.join(' ')} ${sentence(random, words, 10, 40)}.`,
    issue: { class: message.class, signature: placeless(errorSignature(line) ?? line) },
    tags: [message.tool, words.term()],
  };
}

function otherPattern(random: Random, words: Words) {
  const category = pick(random, TASK_CATEGORIES);
  const roll = random();
  const title = `${pick(random, VERBS)} the ${words.term()} ${words.term()} ${sentence(random, words, 2, 6)}`;
  const body = `${pick(random, APPROACHES)} ${sentence(random, words, 15, 50)}.`;
  if (roll < 0.375)
    return { type: 'success' as const, title, body, category, tags: [words.term()] };
  if (roll < 0.625)
    return {
      type: 'anti' as const,
      title: `Avoid: ${title}`,
      body,
      category,
      tags: [words.term()],
    };
  const code = `export function ${camel(words.term(), words.term())}(input: ${pascal(words.term(), words.term())}) {\n  return input;\n}`;
  return {
    type: 'template' as const,
    title,
    body,
    template: { language: 'typescript', code },
    tags: ['typescript', words.term()],
  };
}

/** The snapshot a run over a registry of `count` patterns would freeze. */
export function makeSnapshot(count: number, seed: number): LearningSnapshot {
  const random = seededRandom(seed);
  const words: Words = { term: zipf(random, WORDS), filler: zipf(random, GENERAL) };
  const errors = zipf(random, ERROR_MESSAGES);
  const at = '2026-10-01T09:00:00.000Z';
  const patterns = Array.from({ length: count }, (_, index) => {
    const uses = between(random, 0, 40);
    const successes = Math.floor(uses * random());
    return {
      scope: index % 3 === 0 ? ('project:shop' as const) : ('org' as const),
      patternId: `p${index}`,
      version: between(random, 1, 5),
      ...(random() < 0.6 ? errorPattern(random, words, errors) : otherPattern(random, words)),
      uses,
      successes,
      successRate: uses === 0 ? 1 : successes / uses,
      trend: [],
      sources: [
        {
          runId: `run-${between(random, 1, 5000)}`,
          projectId: 'shop',
          iterations: [between(random, 1, 30)],
          at,
        },
      ],
      createdAt: at,
      updatedAt: at,
    };
  });
  return { runId: 'run-bench', projectId: 'shop', takenAt: at, rules: [], patterns };
}

/** What `count` iterations would search with: a task's title and description, then an error signature. */
export function makeQueries(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const words: Words = { term: zipf(random, WORDS), filler: zipf(random, GENERAL) };
  const errors = zipf(random, ERROR_MESSAGES);
  return Array.from({ length: count }, () => {
    const title = `${pick(random, VERBS)} ${words.term()} ${words.term()}`;
    const description = `${sentence(random, words, 12, 40)}.`;
    const file = `src/${words.term()}/${words.term()}.ts(${between(random, 1, 300)},${between(random, 1, 40)}): `;
    const error = errorSignature(file + fill(random, errors(), words)) ?? '';
    return `${title}\n${description}\n${error}`;
  });
}
