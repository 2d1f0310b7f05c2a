/**
 * The flat `evaluation` config of runs stored before it had sections (`RunRecord.config`
 * in DynamoDB, `request.json`, an old `ralph.config.json`): one object of 51 thresholds
 * beside `enabled`, `suite`, `judgeChanges` and `stopOnConvergence`. Recognised by its
 * keys (no section name is a flat key) and lifted into the sections of
 * evaluation-config.ts, each value unchanged; a value the sections also give loses to
 * theirs. Anything else passes as it is.
 */

/** Where each flat key lives now: its section and its name there. */
export const FLAT_EVALUATION_FIELDS: ReadonlyMap<string, readonly [section: string, key: string]> =
  new Map(
    Object.entries({
      cheapThreshold: ['convergence', 'cheapThreshold'],
      gapThreshold: ['convergence', 'gapThreshold'],
      stableIterations: ['convergence', 'stableIterations'],
      maxPatternCountChange: ['convergence', 'maxPatternCountChange'],
      minIterations: ['convergence', 'minIterations'],
      risingGapIterations: ['divergence', 'risingGapIterations'],
      plateauIterations: ['divergence', 'plateauIterations'],
      plateauRange: ['divergence', 'plateauRange'],
      patternExplosionFactor: ['divergence', 'patternExplosionFactor'],
      regressionGapIncrease: ['regression', 'gapIncrease'],
      regressionCheapDrop: ['regression', 'cheapDrop'],
      regressionAgreementDrop: ['regression', 'agreementDrop'],
      judgeMaxTries: ['judge', 'maxTries'],
      judgeTimeoutSeconds: ['judge', 'timeoutSeconds'],
      unreliableFailureRate: ['judge', 'unreliableFailureRate'],
      judgeReruns: ['judge', 'reruns'],
      highVarianceThreshold: ['judge', 'highVarianceThreshold'],
      judgeConcurrency: ['judge', 'concurrency'],
      coverageMinSharedTokens: ['coverage', 'minSharedTokens'],
      coverageMinWeaknessShare: ['coverage', 'minWeaknessShare'],
      coverageTarget: ['coverage', 'target'],
      validateAfterTests: ['patterns', 'validateAfterTests'],
      validateMinAccuracy: ['patterns', 'validateMinAccuracy'],
      rejectAfterTests: ['patterns', 'rejectAfterTests'],
      rejectMaxAccuracy: ['patterns', 'rejectMaxAccuracy'],
      dedupeJaccardThreshold: ['patterns', 'dedupeJaccardThreshold'],
      weightLearningRate: ['patterns', 'weightLearningRate'],
      recalibrateMinTests: ['patterns', 'recalibrateMinTests'],
      pruneUnusedIterations: ['patterns', 'pruneUnusedIterations'],
      pruneMinWeight: ['patterns', 'pruneMinWeight'],
      highRejectionRate: ['patterns', 'highRejectionRate'],
      learningGapThreshold: ['proposals', 'gapThreshold'],
      proposalArtefactGapThreshold: ['proposals', 'artefactGapThreshold'],
      maxProposalsPerIteration: ['proposals', 'maxPerIteration'],
      maxNewPatternsPerIteration: ['proposals', 'maxNewPatterns'],
      initialProvisionalWeight: ['proposals', 'initialWeight'],
      proposalTimeoutSeconds: ['proposals', 'timeoutSeconds'],
      proposalMaxTries: ['proposals', 'maxTries'],
      proposalMaxTokens: ['proposals', 'maxTokens'],
      proposalArtefactChars: ['proposals', 'artefactChars'],
      proposalPatternListLimit: ['proposals', 'patternListLimit'],
      minerHighScore: ['miner', 'highScore'],
      minerLowScore: ['miner', 'lowScore'],
      minerZThreshold: ['miner', 'zThreshold'],
      minerMinSupport: ['miner', 'minSupport'],
      minerMaxNgram: ['miner', 'maxNgram'],
      minerPriorScale: ['miner', 'priorScale'],
      learningRateReduction: ['recovery', 'learningRateReduction'],
      raisedValidationAccuracy: ['recovery', 'raisedValidationAccuracy'],
      recoveryPruneMaxWeight: ['recovery', 'pruneMaxWeight'],
      calibrationHistoryMax: ['history', 'maxEntries'],
    } as const),
  );

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `value` is an evaluation config of the flat shape (it holds a flat key).
 *
 * @example
 * isFlatEvaluationConfig({ enabled: true, cheapThreshold: 3.5 }); // true
 * isFlatEvaluationConfig({ enabled: true, convergence: { cheapThreshold: 3.5 } }); // false
 */
export function isFlatEvaluationConfig(value: unknown): value is Fields {
  return isObject(value) && Object.keys(value).some((key) => FLAT_EVALUATION_FIELDS.has(key));
}

/**
 * A flat evaluation config lifted into sections; any other value unchanged.
 *
 * @example
 * liftFlatEvaluationConfig({ enabled: true, cheapThreshold: 3.5, judgeReruns: 5 });
 * // { enabled: true, convergence: { cheapThreshold: 3.5 }, judge: { reruns: 5 } }
 */
export function liftFlatEvaluationConfig(value: unknown): unknown {
  if (!isFlatEvaluationConfig(value)) return value;
  const lifted: Fields = {};
  const sections = new Map<string, Fields>();
  for (const [key, field] of Object.entries(value)) {
    const place = FLAT_EVALUATION_FIELDS.get(key);
    if (!place) {
      lifted[key] = field;
      continue;
    }
    const [section, name] = place;
    const fields = sections.get(section) ?? {};
    fields[name] = field;
    sections.set(section, fields);
  }
  for (const [section, fields] of sections) {
    const given = lifted[section];
    lifted[section] =
      given === undefined ? fields : isObject(given) ? { ...fields, ...given } : given;
  }
  return lifted;
}
