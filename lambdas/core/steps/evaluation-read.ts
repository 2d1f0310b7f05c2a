import type { z } from 'zod';
import type { ArtefactStore } from '../../ports.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { InvalidTransitionError } from '../errors.js';
import type { LoopState } from '../schemas/loop-state.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import { readArtefact } from '../shared/read-artefact.js';
import type { Artefact } from '../schemas/evaluation.js';

/** A stored JSON document, validated: a bad one is InvalidInputError naming key and path. */
export async function readStoredJson<S extends z.ZodType>(
  artefacts: ArtefactStore,
  key: string,
  schema: S,
): Promise<z.output<S>> {
  return parseOrThrow(schema, parseJsonText(await artefacts.getText(key), key), key);
}

/** The artefacts collect-artefacts stored for an iteration, in the order of `ids`. */
export async function readEvaluationArtefacts(
  artefacts: ArtefactStore,
  runId: string,
  iteration: number,
  ids: readonly string[],
): Promise<Artefact[]> {
  return Promise.all(
    ids.map(async (id) => {
      const key = artefactKeys.evaluationArtefact(runId, iteration, id);
      return readArtefact(parseJsonText(await artefacts.getText(key), key), key);
    }),
  );
}

/** The iteration and artefact ids of a step that only runs when the iteration is evaluated. */
export function requireEvaluation(input: LoopState): {
  iteration: number;
  artefactIds: string[];
} {
  if (input.iteration === undefined || input.evaluation === undefined)
    throw new InvalidTransitionError(
      `an evaluation step of run ${input.runId} needs an iteration and its artefact ids`,
    );
  return { iteration: input.iteration, artefactIds: input.evaluation.artefactIds };
}
