/**
 * The loop's ports and the project's pattern sets, built once per container from its
 * environment. Apart from the model's (environment.ts), so the cheap mode's function, which
 * never calls a model, bundles no model SDK.
 */
import { DynamoS3PatternSetStore } from '../adapters/pattern-sets/pattern-set-store.js';
import { createDynamoDocumentClient } from '../adapters/aws-clients.js';
import type { EvaluationDeps } from '../core/steps/evaluation-deps.js';
import { depsFromEnvironment, required } from './store-environment.js';

let cached: EvaluationDeps | undefined;

/** The evaluation's ports without a model: the cheap mode's. */
export function patternDepsFromEnvironment(): EvaluationDeps {
  if (!cached) {
    const loop = depsFromEnvironment();
    cached = {
      ...loop,
      patternSets: new DynamoS3PatternSetStore({
        client: createDynamoDocumentClient({}),
        tableName: required('TABLE_NAME'),
        artefacts: loop.artefacts,
        clock: loop.clock,
      }),
    };
  }
  return cached;
}
