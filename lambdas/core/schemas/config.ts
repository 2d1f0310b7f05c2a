import { z } from 'zod';
import { LoopControlConfigSchema } from './control-config.js';
import { AnalysisConfigSchema } from './evaluation-config.js';

/** A quality gate: a shell command the runner (never the agent) runs after each iteration. */
export const GateSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
  command: z.string().min(1),
  timeoutSeconds: z.number().int().positive().default(600),
  /** A failed blocking gate resets the iteration's change; an advisory one is only recorded. */
  blocking: z.boolean().default(true),
});
export type Gate = z.infer<typeof GateSchema>;

export const AgentConfigSchema = z.object({
  /**
   * The agent command, run through `sh -c` in the working copy with the prompt on stdin.
   * When absent, `claude -p ...` is used if `claude` is on the PATH.
   */
  command: z.string().min(1).optional(),
  timeoutSeconds: z.number().int().positive().default(1800),
  /** Extra environment for the agent process. */
  env: z.record(z.string(), z.string()).default({}),
});

export const LimitsSchema = z.object({
  maxIterations: z.number().int().positive().default(10),
  /** A Standard execution's history is capped at 25,000 events: start a new segment this often. */
  iterationsPerSegment: z.number().int().positive().default(25),
  /** Consecutive iterations that end without a counted commit before the run aborts. */
  maxConsecutiveFailures: z.number().int().positive().default(5),
});

export const ModelsSchema = z.object({
  judge: z.string().min(1).default('claude-sonnet-4-6'),
  proposer: z.string().min(1).default('claude-sonnet-4-6'),
});

/**
 * An evaluation suite: a command that runs the project's pipeline on fixed test data and
 * writes one JSON document per input into `outputDir`. The runner runs it after a counted
 * commit; each document becomes an artefact both evaluation modes score, under the same id
 * every iteration (which is what convergence compares).
 */
export const EvaluationSuiteSchema = z.object({
  command: z.string().min(1),
  /** Relative to the repository root; emptied before each run of the suite. */
  outputDir: z.string().min(1).default('.ralph-eval'),
  timeoutSeconds: z.number().int().positive().default(600),
  /** What the documents are: `user_story` has the design document's rubric and heuristics. */
  documentType: z.string().min(1).default('user_story'),
  /** More documents than this is a suite fault (the Map over artefacts is bounded). */
  maxDocuments: z.number().int().positive().max(200).default(50),
});
export type EvaluationSuite = z.infer<typeof EvaluationSuiteSchema>;

/**
 * Dual-mode evaluation of every iteration (shared/design/dual-mode-evaluation.md): off
 * unless enabled, since the judge is a paid model call per artefact.
 */
export const RunEvaluationConfigSchema = AnalysisConfigSchema.extend({
  suite: EvaluationSuiteSchema.optional(),
  /**
   * Judge the iteration's change (story, diff, gates). Unset: only when the run has no
   * suite (the change is then what is evaluated); with a suite, its documents are what
   * convergence compares, and a change scored on another rubric would blur their averages.
   */
  judgeChanges: z.boolean().optional(),
  /**
   * End the run once it converges, even with stories open (for runs whose goal is the
   * pipeline the suite measures). Otherwise a run ends when its stories pass, converged
   * or not, and says which.
   */
  stopOnConvergence: z.boolean().default(false),
});
export type RunEvaluationConfig = z.infer<typeof RunEvaluationConfigSchema>;

/** `ralph.config.json`: everything a run can be told, each with a default. */
export const RunConfigSchema = z.object({
  agent: AgentConfigSchema.prefault({}),
  gates: z
    .array(GateSchema)
    .default([])
    .superRefine((gates, ctx) => {
      const names = new Set<string>();
      gates.forEach((gate, index) => {
        if (names.has(gate.name))
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `duplicate gate "${gate.name}"`,
          });
        names.add(gate.name);
      });
    }),
  limits: LimitsSchema.prefault({}),
  models: ModelsSchema.prefault({}),
  evaluation: RunEvaluationConfigSchema.prefault({}),
  /** Loop control (shared/design/ralph-loop-enhancements.md): stagnation, supervisor, ... */
  control: LoopControlConfigSchema.prefault({}),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;

/** The agent command used when none is configured and `claude` is on the PATH. */
export const CLAUDE_CODE_COMMAND =
  'claude -p --dangerously-skip-permissions --output-format stream-json --verbose';
