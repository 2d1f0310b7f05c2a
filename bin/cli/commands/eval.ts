import { lazyAnthropicModel } from '../../../lambdas/adapters/lazy-model-client.js';
import { resolveEvaluationConfig } from '../../../lambdas/core/schemas/evaluation-config.js';
import {
  evaluateArtefacts,
  type EvaluationMode,
} from '../../../lambdas/core/steps/evaluate-artefacts.js';
import { PatternSetSchema, type PatternSet } from '../../../lambdas/core/schemas/evaluation.js';
import { parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import { RunConfigSchema } from '../../../lambdas/core/schemas/config.js';
import { startModelServer, type ModelServer } from '../../../local/model-server/server.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import type { ModelClient } from '../../../lambdas/ports.js';
import { criteriaAgreementTable } from '../criteria-agreement-render.js';
import { perArtefactTable } from '../eval-artefacts-render.js';
import { renderResultsBlock } from '../results-block.js';
import { resultsFromOutcome } from '../results-from-outcome.js';
import { readJson } from '../run-input.js';
import { readEvalInput } from '../eval-input.js';
import { readLabelOption, reportLabels } from '../eval-labels.js';

export interface EvalOptions {
  mode: EvaluationMode;
  patterns?: string;
  model?: string;
  /** A CSV of human QUS labels to measure the cheap mode against (docs/labels.md). */
  labels?: string;
}

/**
 * `ralph eval PATH`: scores user stories (a folder of artefacts or story files, a prd.json,
 * a labelled CSV, or one story per line: eval-input.ts) with the judge, the cheap
 * evaluator, or both, without a loop; with `--labels`, measures the cheap mode against
 * human labels. Without ANTHROPIC_API_KEY the judge is the offline stand-in, served over
 * the Messages API.
 */
export async function evalCommand(
  dir: string,
  options: EvalOptions,
  output: Output,
): Promise<number> {
  const { artefacts } = await readEvalInput(dir);
  const labels = await readLabelOption(options.labels, options.mode);
  const patternSet = options.patterns
    ? parseOrThrow(PatternSetSchema, await readJson(options.patterns), options.patterns)
    : emptyPatternSet();
  const config = resolveEvaluationConfig();
  const judgeModel = options.model ?? RunConfigSchema.parse({}).models.judge;
  const apiKey = process.env.ANTHROPIC_API_KEY;

  let server: ModelServer | undefined;
  try {
    let model: ModelClient | undefined;
    if (options.mode !== 'cheap') {
      if (apiKey) model = lazyAnthropicModel({ apiKey });
      else {
        server = await startModelServer();
        model = lazyAnthropicModel({ apiKey: 'offline', baseURL: server.url });
      }
    }
    output.line(
      `ralph-cloud eval · ${artefacts.length} artefacts · mode ${options.mode} · judge: ${
        options.mode === 'cheap'
          ? 'not used'
          : apiKey
            ? `${judgeModel} (Anthropic API)`
            : 'offline judge (a deterministic stand-in, not a model; set ANTHROPIC_API_KEY for the real one)'
      } · patterns: ${options.patterns ? `${patternSet.patterns.length} from ${options.patterns}` : 'none (heuristics only)'}`,
    );
    const outcome = await evaluateArtefacts(model ? { model } : {}, {
      artefacts,
      patternSet,
      config,
      models: { judge: judgeModel },
      mode: options.mode,
    });
    // The tables are for people: under --json they would be built and dropped, which for a
    // folder of 10,000 stories cost ten times the scoring.
    if (!output.json) {
      output.line(perArtefactTable(outcome));
      if (outcome.dual) output.line(`\n${criteriaAgreementTable(outcome.dual.criteria)}`);
      output.line('');
      output.line(
        renderResultsBlock(
          resultsFromOutcome('Evaluation Results', outcome, config.convergence, {
            offlineJudge: server !== undefined,
          }),
        ),
      );
    }
    const agreement = reportLabels(labels, artefacts, outcome, output);
    output.data(agreement ? { ...outcome, labels: agreement } : outcome);
    return EXIT.ok;
  } finally {
    await server?.stop();
  }
}

/** The pattern set of a cheap mode without learned patterns: heuristics and detectors only. */
export function emptyPatternSet(): PatternSet {
  return PatternSetSchema.parse({
    schemaVersion: '2.0',
    version: 1,
    createdAt: new Date(0).toISOString(),
    reason: 'no learned patterns: heuristics only',
    patterns: [],
  });
}
