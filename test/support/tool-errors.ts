/**
 * The registry retrieval's recall fixture (test/fixtures/learning/tool-errors.json, made by
 * scripts/make-tool-errors.ts from real tool output): read and checked, the query each case
 * asks with, and recall@k of a retriever over it. Shared by the retrieval test and the
 * learning bench.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { RegistryPatternSchema } from '../../lambdas/core/schemas/learning.js';
import type { PatternRetriever } from '../../lambdas/learning-ports.js';

export const TOOL_ERRORS_PATH = resolve(
  import.meta.dirname,
  '../fixtures/learning/tool-errors.json',
);

const ToolErrorCaseSchema = z.strictObject({
  id: z.string().min(1),
  tool: z.enum(['tsc', 'eslint', 'vitest', 'pytest']),
  task: z.strictObject({ title: z.string().min(1), description: z.string().min(1) }),
  /** The output's error line, as printed. */
  errorLine: z.string().min(1),
  /** errorSignature of that line: the query's error part. */
  error: z.string().min(1),
  /** problemSignature of the whole output: the error part of the loop's own query. */
  loopSignature: z.string().min(1),
  /** The patternId it should retrieve. */
  expected: z.string().min(1),
});
export type ToolErrorCase = z.infer<typeof ToolErrorCaseSchema>;

const ToolErrorsSchema = z.strictObject({
  about: z.string(),
  tools: z.record(z.string(), z.string()),
  registry: z.array(RegistryPatternSchema),
  cases: z.array(ToolErrorCaseSchema).min(1),
});
export type ToolErrors = z.infer<typeof ToolErrorsSchema>;

export function loadToolErrors(): ToolErrors {
  return ToolErrorsSchema.parse(JSON.parse(readFileSync(TOOL_ERRORS_PATH, 'utf8')));
}

/** Which error text a case asks with: its error line's signature, or the loop's signature. */
export type ErrorPart = 'error' | 'loopSignature';

/** What an iteration would search with: the task's title and description, then the error. */
export const caseQuery = (entry: ToolErrorCase, part: ErrorPart = 'error'): string =>
  `${entry.task.title}\n${entry.task.description}\n${entry[part]}`;

/** The share of cases whose expected pattern is among the first `k` the retriever returns. */
export function recallAt(
  retriever: PatternRetriever,
  cases: readonly ToolErrorCase[],
  k: number,
  part: ErrorPart = 'error',
): number {
  const found = cases.filter((entry) =>
    retriever
      .search(caseQuery(entry, part), k)
      .some((result) => result.pattern.patternId === entry.expected),
  );
  return found.length / cases.length;
}
