import {
  PROJECT_PARTITIONS,
  PROJECT_SPEND,
  ERROR_GROUP_PARTITIONS,
  REGISTRY_BODIES,
  REGISTRY_PARTITIONS,
  RUN_PARTITIONS,
  type DataAccess,
  type TableAccess,
} from './data-access.js';
import type { LoopStep } from './loop-steps.js';

/** An iteration's folder (`artefactKeys.iteration`): `runs/{runId}/iterations/{n}`. */
const ITERATION = 'runs/*/iterations/*';

/** The runner's result.json: missing when the runner died before writing it. */
const RESULT = `${ITERATION}/result.json`;

/** The plan advance writes for the runner. */
const PLAN = `${ITERATION}/plan.json`;

/** What both evaluation modes score (`artefactKeys.evaluationArtefact`). */
const EVALUATION_ARTEFACTS = `${ITERATION}/artefacts/*.json`;

/** The judge's verdicts (`artefactKeys.judgeResult`). */
const JUDGEMENTS = `${ITERATION}/expensive/*.json`;

/** An investigate run's report, written when it ends. */
const INVESTIGATION_REPORT = 'runs/*/investigation-report.json';

/** Pattern-set version bodies (`artefactKeys.patternSet`): `projects/{id}/patterns/v{n}.json`. */
const PATTERN_SETS = 'projects/*/patterns/v*.json';

const GET = 'dynamodb:GetItem';
const QUERY = 'dynamodb:Query';
const PUT = 'dynamodb:PutItem';

/**
 * A project's pattern set (adapters/pattern-sets), items under `PROJECT#<id>` and version
 * bodies under `projects/<id>/patterns/`: `current` and `get` read the pointer and the
 * version item (GetItem) and the body (GET; a missing body makes the version unusable, so
 * it may be missing), and `current` Queries the version items when it falls back from an
 * unusable version; `publish` (and `listVersions`) Query them; `publish` writes the body,
 * and `publish` and `rollback` write the version item and the pointer by conditional
 * PutItem.
 */
const PATTERN_SET_ITEMS: TableAccess = {
  actions: [GET, QUERY, PUT],
  partitions: [PROJECT_PARTITIONS],
};

/** Why the registry's body keys hold wildcards, for the cdk-nag acknowledgements. */
const REGISTRY_IDS =
  'registry pattern bodies are named by scope, pattern id, version and digest, known only at run time';

/**
 * What learning keeps on the table (adapters/dynamodb/learning-store.ts) beyond a run's
 * hints, which are in the run's partition: a project's rules under `PROJECT#<id>` and the
 * registry's patterns under `REGISTRY#<scope>`, each read by GetItem and listed by Query,
 * written by conditional PutItem (which reads the item back by GetItem when the condition
 * fails). One statement per partition. No loop function archives a pattern (a DeleteItem
 * and `registry/archive/`): deployed functions delete nothing.
 */
const LEARNING_ITEMS: readonly TableAccess[] = [PROJECT_PARTITIONS, REGISTRY_PARTITIONS].map(
  (partition) => ({ actions: [GET, QUERY, PUT], partitions: [partition] }),
);

/** The same items, read only: what a run's learning snapshot is taken from. */
const LEARNING_READS: readonly TableAccess[] = [PROJECT_PARTITIONS, REGISTRY_PARTITIONS].map(
  (partition) => ({ actions: [GET, QUERY], partitions: [partition] }),
);

/** What a run's end learned, and the effect of injection (steps/learn-from-run.ts). */
const LEARNING_REPORT = 'runs/*/learning-report.json';

/** What a run learns from, frozen at its start (steps/learning-snapshot.ts). */
const LEARNING_SNAPSHOT = 'runs/*/learning-snapshot.json';

/** Why the object keys hold wildcards, for the cdk-nag acknowledgements. */
const RUNTIME_IDS =
  'the run id and iteration number are known only at run time, so each pattern names one file (or one folder of the step) under every run';

/**
 * The permissions of each run-loop function, read from the code its handler runs
 * (lambdas/handlers/<step>.ts → core/steps). Run, task and iteration items are read by
 * GetItem and Query and written by conditional PutItem, which reads the item back (GetItem)
 * when the condition fails (adapters/dynamodb/conditional-writes.ts). Every object write is
 * the write-once S3ArtefactStore.put, which reads an existing key back (GetObject). A key
 * read or checked (HEAD) that may not exist needs `s3:ListBucket` to be a 404, not a 403.
 * No function lists runs (`gsi1`), claims an iteration (UpdateItem: the runner does) or
 * deletes anything.
 * - `initRun` (steps/init-run.ts): GetItem of the run; segment 1 reads `request.json`,
 *   creates the run (GetItem, BatchWriteItem of its tasks, conditional PutItem of the run),
 *   and writes `manifest.json` unless a HEAD finds it; a later segment saves the run. Then
 *   it Queries the tasks, reads the iteration a dead segment left open (GetItem, and its
 *   `result.json` if any) and advances as `advance` does (below). It reads the project's rules
 *   and the registry's patterns (LEARNING_READS, and the bodies of large ones) and writes the
 *   run's `learning-snapshot.json` unless a HEAD finds it.
 * - `openFixPullRequest` (steps/open-fix-pull-request.ts): GetItem of run and iteration,
 *   `result.json` if any and the task's error (`errors/<taskId>.json`, if any); GetItem and
 *   conditional PutItem of the task's fix pull request item (`FIXPR#<taskId>` in the run's
 *   partition); writes the iteration's `pull-request.json`; GetItem and conditional PutItem
 *   of the task's error group (`GROUP#<source>#<fingerprint>`), concluded with the outcome.
 * - `collectArtefacts` (steps/collect-artefacts.ts): GetItem of run and iteration, Query of
 *   the tasks, `result.json` if any, the runner's `diff.patch`; writes `artefacts/change.json`.
 * - `judgeArtefact` (steps/judge-artefact.ts): HEAD, then GET, of its verdict
 *   (`expensive/<id>.json`); else GetItem of the run, GET of the artefact, and writes the
 *   verdict (and a failed judge's raw answer, `expensive/<id>.raw-1.txt`).
 * - `evaluateCheap` (steps/evaluate-cheap.ts): HEAD of `cheap.json`; GetItem of the run,
 *   the project's current pattern set (published as an empty version 1 the first time,
 *   steps/current-pattern-set.ts), GET of the artefacts; writes `cheap.json`.
 * - `analyzeGap` (steps/analyze-gap.ts): GetItem of run and iteration; GET of the artefacts,
 *   `cheap.json`, the verdicts (a missing one counts as failed), the previous iteration's
 *   `gap.json` (the run's `lastAnalysisKey`), `result.json` if any; the pattern-set
 *   versions that scored, the previous one and a rollback's target (`get`), then `publishNext`
 *   (steps/next-version.ts: `current`, `listVersions`, `rollback` on a regression, `publish`);
 *   writes `gap.json`, `log.json` and, on convergence, `convergence-proof.json`
 *   (steps/gap-records.ts); saves run and iteration (PutItem).
 * - `advance` (steps/advance.ts): GetItem of the run and of the iteration that ran, the
 *   last failed and the handed-out one; Query of the tasks; `result.json` if any; saves
 *   tasks, run and iteration, creates the next iteration (PutItem) and writes its `plan.json`.
 *   It keeps a passing iteration's hint (conditional PutItem in the run's partition), Queries
 *   the run's hints and reads its `learning-snapshot.json` (missing for a run without one).
 * - `pauseRun` (steps/end-segment.ts): GetItem and PutItem of the run; no object.
 * - `finalizeRun` (steps/end-segment.ts): GetItem and PutItem of the run; unless a HEAD finds
 *   `summary.json`, Queries iterations and tasks and writes it; for an investigate run, unless
 *   a HEAD finds `investigation-report.json`, reads each iteration's `result.json` and
 *   `pull-request.json` (either may be missing) and writes the report. At the run's end it
 *   reads the run's hints (Query of its partition), promotes rules, saves the patterns it
 *   extracted (code templates from the newest passing iterations' `diff.patch`, any of
 *   which may be missing) and those it used (LEARNING_ITEMS, large bodies), and writes
 *   `learning-report.json` unless a HEAD finds it.
 */
export const LOOP_ACCESS: Readonly<Record<LoopStep, DataAccess>> = {
  initRun: {
    table: [
      { actions: [GET, QUERY, PUT, 'dynamodb:BatchWriteItem'], partitions: [RUN_PARTITIONS] },
      ...LEARNING_READS,
      PROJECT_SPEND,
    ],
    bucket: {
      read: ['runs/*/request.json', 'runs/*/manifest.json', RESULT, REGISTRY_BODIES],
      write: ['runs/*/manifest.json', PLAN, LEARNING_SNAPSHOT],
      mayBeMissing: ['runs/*/manifest.json', RESULT, LEARNING_SNAPSHOT],
      why: `initRun reads the run request and the result of an iteration left open, and writes the run manifest and the next plan: ${RUNTIME_IDS}; ${REGISTRY_IDS}.`,
    },
  },
  openFixPullRequest: {
    table: [
      { actions: [GET, PUT], partitions: [RUN_PARTITIONS] },
      // The task's error group, concluded fixed or given up (steps/conclude-error-group.ts).
      { actions: [GET, PUT], partitions: [ERROR_GROUP_PARTITIONS] },
    ],
    bucket: {
      read: [RESULT, 'runs/*/errors/*.json'],
      write: [`${ITERATION}/pull-request.json`],
      mayBeMissing: [RESULT, 'runs/*/errors/*.json'],
      why: `openFixPullRequest reads the runner's result and the task's error and writes the pull request's outcome: ${RUNTIME_IDS}; the task id is known only at run time too.`,
    },
  },
  collectArtefacts: {
    table: [{ actions: [GET, QUERY], partitions: [RUN_PARTITIONS] }],
    bucket: {
      read: [RESULT, `${ITERATION}/diff.patch`],
      write: [`${ITERATION}/artefacts/change.json`],
      mayBeMissing: [RESULT],
      why: `collectArtefacts reads the runner's result and diff and writes the change artefact: ${RUNTIME_IDS}.`,
    },
  },
  judgeArtefact: {
    table: [{ actions: [GET], partitions: [RUN_PARTITIONS] }],
    bucket: {
      read: [JUDGEMENTS, EVALUATION_ARTEFACTS],
      write: [JUDGEMENTS, `${ITERATION}/expensive/*.raw-*.txt`],
      mayBeMissing: [JUDGEMENTS],
      why: `judgeArtefact reads one evaluation artefact and writes its verdict (and a failed judge's raw answer): ${RUNTIME_IDS}; the artefact id is known only at run time too.`,
    },
  },
  evaluateCheap: {
    table: [{ actions: [GET], partitions: [RUN_PARTITIONS] }, PATTERN_SET_ITEMS],
    bucket: {
      read: [`${ITERATION}/cheap.json`, EVALUATION_ARTEFACTS, PATTERN_SETS],
      write: [`${ITERATION}/cheap.json`, PATTERN_SETS],
      mayBeMissing: [`${ITERATION}/cheap.json`, PATTERN_SETS],
      why: `evaluateCheap reads the evaluation artefacts and the project's pattern set (publishing its first version) and writes cheap.json: ${RUNTIME_IDS}; the project id and version are known only at run time too.`,
    },
  },
  analyzeGap: {
    table: [{ actions: [GET, PUT], partitions: [RUN_PARTITIONS] }, PATTERN_SET_ITEMS],
    bucket: {
      read: [
        EVALUATION_ARTEFACTS,
        `${ITERATION}/cheap.json`,
        JUDGEMENTS,
        `${ITERATION}/gap.json`,
        RESULT,
        PATTERN_SETS,
      ],
      write: [
        `${ITERATION}/gap.json`,
        `${ITERATION}/log.json`,
        'runs/*/convergence-proof.json',
        PATTERN_SETS,
      ],
      mayBeMissing: [JUDGEMENTS, RESULT, PATTERN_SETS],
      why: `analyzeGap reads both modes' results and the previous gap report, and writes the gap report, the iteration log, the convergence proof and pattern-set versions: ${RUNTIME_IDS}; the project id and version are known only at run time too.`,
    },
  },
  advance: {
    table: [{ actions: [GET, QUERY, PUT], partitions: [RUN_PARTITIONS] }, PROJECT_SPEND],
    bucket: {
      read: [RESULT, LEARNING_SNAPSHOT],
      write: [PLAN],
      mayBeMissing: [RESULT, LEARNING_SNAPSHOT],
      why: `advance reads the runner's result and writes the next iteration's plan: ${RUNTIME_IDS}; ${REGISTRY_IDS}.`,
    },
  },
  pauseRun: {
    table: [{ actions: [GET, PUT], partitions: [RUN_PARTITIONS] }],
  },
  finalizeRun: {
    table: [{ actions: [GET, QUERY, PUT], partitions: [RUN_PARTITIONS] }, ...LEARNING_ITEMS],
    bucket: {
      read: [
        'runs/*/summary.json',
        INVESTIGATION_REPORT,
        RESULT,
        `${ITERATION}/pull-request.json`,
        `${ITERATION}/diff.patch`,
      ],
      write: ['runs/*/summary.json', INVESTIGATION_REPORT, REGISTRY_BODIES, LEARNING_REPORT],
      mayBeMissing: [
        'runs/*/summary.json',
        INVESTIGATION_REPORT,
        RESULT,
        `${ITERATION}/pull-request.json`,
        `${ITERATION}/diff.patch`,
        LEARNING_REPORT,
      ],
      why: `finalizeRun writes the run summary once, and an investigate run's report from its iterations' results and pull-request outcomes: ${RUNTIME_IDS}; ${REGISTRY_IDS}.`,
    },
  },
};
