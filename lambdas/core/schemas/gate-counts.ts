/**
 * What a gate's output said, in numbers: its tests and its diagnostics, read by
 * `tool-output/read-output.ts` and kept on the iteration's observation.
 */
import { z } from 'zod';

const Count = z.number().int().nonnegative();

export const TEST_FRAMEWORKS = ['node-test', 'vitest', 'jest', 'pytest', 'cargo', 'go'] as const;
export const TestFrameworkSchema = z.enum(TEST_FRAMEWORKS);
export type TestFramework = z.infer<typeof TestFrameworkSchema>;

/**
 * Test counts summed over every summary found. A count is absent when some summary does
 * not tell it (`go test` without `-v` names failures only).
 */
export const TestCountsSchema = z.object({
  passed: Count.optional(),
  /** Failed, errored (pytest) and cancelled (node:test) tests. */
  failed: Count.optional(),
  /** Skipped, ignored (cargo), todo and expected-failure (pytest xfail) tests. */
  skipped: Count.optional(),
  total: Count.optional(),
  frameworks: z.array(TestFrameworkSchema).min(1),
});
export type TestCounts = z.infer<typeof TestCountsSchema>;

/** `clippy` covers all of cargo's compiler output: rustc's own warnings count as well. */
export const DIAGNOSTIC_TOOLS = ['tsc', 'eslint', 'clippy'] as const;
export const DiagnosticToolSchema = z.enum(DIAGNOSTIC_TOOLS);
export type DiagnosticTool = z.infer<typeof DiagnosticToolSchema>;

export const DiagnosticCountsSchema = z.object({
  errors: Count,
  warnings: Count,
  tools: z.array(DiagnosticToolSchema).min(1),
});
export type DiagnosticCounts = z.infer<typeof DiagnosticCountsSchema>;

export const GateOutputCountsSchema = z.object({
  tests: TestCountsSchema.optional(),
  diagnostics: DiagnosticCountsSchema.optional(),
});
export type GateOutputCounts = z.infer<typeof GateOutputCountsSchema>;
