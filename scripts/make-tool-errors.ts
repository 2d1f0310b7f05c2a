/**
 * Generates `test/fixtures/learning/tool-errors.json`: the registry retrieval's recall
 * fixture, from real output of the tools the gates run (tsc, eslint, vitest, pytest).
 *
 *   npx tsx scripts/make-tool-errors.ts   # rewrites the fixture (a few minutes: one tool run per instance)
 *
 * Each error kind (scripts/tool-errors/kinds-*.ts) is made two or three times on different
 * names in a scratch folder: the first instance teaches its registry pattern (the issue
 * signature is that output's, placeless), each later one is a case: a task, the error line
 * of its output, and the pattern it should retrieve. Hand-written distractors fill the rest
 * of the registry. The registry is checked against RegistryPatternSchema before writing.
 */
import { problemSignature } from '../lambdas/core/learning/issue-key.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { placeless } from '../lambdas/core/learning/issue-key.js';
import { RegistryPatternSchema, type RegistryPattern } from '../lambdas/core/schemas/learning.js';
import { errorSignature } from '../lambdas/core/tool-output/error-signature.js';
import { DISTRACTORS, type Distractor } from './tool-errors/distractors.js';
import { firstErrorLine } from './tool-errors/first-error-line.js';
import { NAMES, TOOLS, type ErrorKind, type Tool } from './tool-errors/kind.js';
import { ESLINT_KINDS } from './tool-errors/kinds-eslint.js';
import { PYTEST_KINDS } from './tool-errors/kinds-pytest.js';
import { TSC_KINDS } from './tool-errors/kinds-tsc.js';
import { VITEST_KINDS } from './tool-errors/kinds-vitest.js';
import { runTool, toolVersion } from './tool-errors/run-tool.js';
import { PYTHON_TASKS, TYPESCRIPT_TASKS, type Task } from './tool-errors/tasks.js';

const TARGET = resolve(import.meta.dirname, '../test/fixtures/learning/tool-errors.json');
const KINDS: readonly ErrorKind[] = [
  ...TSC_KINDS,
  ...ESLINT_KINDS,
  ...VITEST_KINDS,
  ...PYTEST_KINDS,
];
/** The gate kind each tool runs as (control/quality/gate-kind.ts): the issue's class. */
const GATE_CLASS: Record<Tool, string> = {
  tsc: 'typecheck',
  eslint: 'lint',
  vitest: 'tests',
  pytest: 'tests',
};
const DAY_MS = 86_400_000;
const EPOCH = Date.parse('2026-09-01T09:00:00.000Z');

interface Case {
  id: string;
  tool: Tool;
  task: Task;
  /** The output's error line, as printed. */
  errorLine: string;
  /** errorSignature of that line: the query's error part. */
  error: string;
  /** problemSignature of the whole output: the error part of the loop's own query. */
  loopSignature: string;
  expected: string;
}

const at = (day: number) => new Date(EPOCH + day * DAY_MS).toISOString();

/** The bookkeeping every registry pattern has; varied by position, deterministically. */
function registryFields(position: number) {
  const uses = position % 7;
  const successes = Math.min(uses, Math.ceil(uses * 0.8));
  return {
    scope: position % 4 === 0 ? ('project:shop' as const) : ('org' as const),
    version: 1 + (position % 3),
    uses,
    successes,
    successRate: uses === 0 ? 1 : successes / uses,
    trend: [],
    sources: [
      {
        runId: `run-${1000 + position}`,
        projectId: 'shop',
        iterations: [2 + (position % 5)],
        at: at(position % 30),
      },
    ],
    createdAt: at(position % 30),
    updatedAt: at(30 + (position % 30)),
  };
}

function kindPattern(kind: ErrorKind, signature: string, position: number): RegistryPattern {
  return RegistryPatternSchema.parse({
    patternId: kind.id,
    type: 'error',
    title: kind.title,
    body: kind.body,
    ...(kind.category ? { category: kind.category } : {}),
    issue: { class: GATE_CLASS[kind.tool], signature },
    tags: kind.tags,
    ...registryFields(position),
  });
}

function distractorPattern(distractor: Distractor, position: number): RegistryPattern {
  const { id, ...rest } = distractor;
  return RegistryPatternSchema.parse({ patternId: id, ...rest, ...registryFields(position) });
}

function errorOf(kind: ErrorKind, output: string, instance: number) {
  const line = firstErrorLine(kind.tool, output);
  if (line === undefined) throw new Error(`${kind.id} #${instance}: no error line in\n${output}`);
  return { line, signature: errorSignature(line)!, loopSignature: problemSignature(output)! };
}

function generate(scratch: string): { registry: RegistryPattern[]; cases: Case[] } {
  const registry: RegistryPattern[] = [];
  const cases: Case[] = [];
  const taskCount: Record<'ts' | 'py', number> = { ts: 0, py: 0 };
  for (const kind of KINDS) {
    for (let instance = 0; instance < kind.instances; instance += 1) {
      const output = runTool(kind.tool, kind.files(NAMES[instance]!), scratch);
      const error = errorOf(kind, output, instance);
      process.stderr.write(`${kind.id} #${instance}: ${error.line.trim()}\n`);
      if (instance === 0) {
        registry.push(kindPattern(kind, placeless(error.signature), registry.length));
        continue;
      }
      const language = kind.tool === 'pytest' ? 'py' : 'ts';
      const tasks = language === 'py' ? PYTHON_TASKS : TYPESCRIPT_TASKS;
      cases.push({
        id: `${kind.id}#${instance}`,
        tool: kind.tool,
        task: tasks[taskCount[language]++ % tasks.length]!,
        errorLine: error.line.trim(),
        error: error.signature.trim(),
        loopSignature: error.loopSignature,
        expected: kind.id,
      });
    }
  }
  for (const distractor of DISTRACTORS)
    registry.push(distractorPattern(distractor, registry.length));
  return { registry, cases };
}

const scratch = mkdtempSync(join(tmpdir(), 'tool-errors-'));
try {
  const { registry, cases } = generate(scratch);
  const fixture = {
    about:
      'Recall fixture for registry retrieval: each case is a task and the error line a gate printed (real tool output, made by scripts/make-tool-errors.ts); expected is the registry pattern it should retrieve. See README.md beside this file.',
    tools: Object.fromEntries(TOOLS.map((tool) => [tool, toolVersion(tool)])),
    registry,
    cases,
  };
  mkdirSync(dirname(TARGET), { recursive: true });
  const options = { ...(await resolveConfig(TARGET)), filepath: TARGET };
  writeFileSync(TARGET, await format(JSON.stringify(fixture), options));
  process.stderr.write(`${registry.length} patterns, ${cases.length} cases → ${TARGET}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
