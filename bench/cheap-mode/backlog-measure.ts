/**
 * The backlog part of the bench: generate it, score it in rounds with every detector and
 * without the backlog's own, time the unique detector beside all pairs, and run it through
 * the CLI once.
 */
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import type { PatternSet } from '../../lambdas/core/schemas/evaluation.js';
import { QusSettingsSchema, type QusCriterion } from '../../lambdas/core/schemas/qus.js';
import { backlogArtefacts, makeBacklog } from './backlog.js';
import type { BacklogMeasurements } from './backlog-report.js';
import { backlogCpu, uniqueFigures } from './backlog-timing.js';
import { cliFigures } from './cli-timing.js';
import type { Options } from './options.js';

const BACKLOG_ONLY: readonly QusCriterion[] = ['uniform', 'unique'];

export function measureBacklog(set: PatternSet, options: Options): BacklogMeasurements {
  const backlog = makeBacklog(options.backlog, options.seed + 2);
  const artefacts = backlogArtefacts(backlog);
  const compiled = compilePatternSet(set);
  const all = backlogCpu(artefacts, compiled, options.rounds);
  const storyOnly = compilePatternSet({
    ...set,
    qus: QusSettingsSchema.parse({
      ...compiled.qus,
      detectors: compiled.qus.detectors.filter((criterion) => !BACKLOG_ONLY.includes(criterion)),
    }),
  });
  const flaggedWith = (criterion: QusCriterion): number =>
    all.last.filter((result) => result.defects.some((defect) => defect.criterion === criterion))
      .length;
  return {
    stories: artefacts.length,
    nearDuplicates: {
      role: backlog.duplicates.filter((duplicate) => duplicate.changed === 'role').length,
      word: backlog.duplicates.filter((duplicate) => duplicate.changed === 'word').length,
    },
    flagged: { unique: flaggedWith('unique'), uniform: flaggedWith('uniform') },
    allDetectors: all.time,
    storyDetectorsOnly: backlogCpu(artefacts, storyOnly, options.rounds).time,
    unique: uniqueFigures(backlog.sentences, compiled.qus.nearDuplicateSimilarity, {
      subset: Math.min(options.allPairsSubset, backlog.sentences.length),
      rounds: options.rounds,
    }),
    cli: options.skipCli ? null : cliFigures(backlog.sentences),
  };
}
