/**
 * What a run's end teaches (ARCHITECTURE.md, finalize-run: "promote hints -> rules, extract
 * cross-loop patterns, effectiveness report"): hint groups seen often enough become project
 * rules, the run's error→fix, success and anti-patterns join the registry of the project
 * and the organisation, each pattern the run was given has its uses counted, and
 * `learning-report.json` says what was learned and what injection did.
 *
 * Safe to repeat, in every part, so that a retried step (after a lost race with another
 * run's end, which the state machine retries) finishes the job: a rule already listing the
 * run's hints, a pattern already listing the run as a source or already counting its uses
 * (a trend point with its run id) is left as it is; the report is written last and ends it.
 */
import { effectReport, taskEffects } from '../learning/effect-report.js';
import { promoteHints } from '../learning/promotion.js';
import { extractPatterns } from '../learning/registry/extract.js';
import { mergeCandidates } from '../learning/registry/merge.js';
import { applyUses, countUses, patternUseKey } from '../learning/registry/uses.js';
import type { IterationRecord } from '../schemas/iteration.js';
import {
  RunLearningReportSchema,
  type RegistryPattern,
  type RegistryScope,
  type RunLearningReport,
} from '../schemas/learning.js';
import type { RunRecord } from '../schemas/run.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import type { LoopDeps } from './deps.js';
import { learns } from './learning-snapshot.js';
import { templateCandidates } from './template-candidates.js';

/** Returns the report, or undefined when the run does not learn or its end was learned from. */
export async function learnFromRun(
  deps: LoopDeps,
  run: RunRecord,
  runIterations: () => Promise<IterationRecord[]>,
): Promise<RunLearningReport | undefined> {
  if (!learns(run)) return undefined;
  const key = artefactKeys.runArtefact(run.runId, 'learning-report.json');
  if (await deps.artefacts.exists(key)) return undefined;
  const now = deps.clock.now().toISOString();
  const [hints, iterations, tasks, rules] = await Promise.all([
    deps.learning.listHints(run.runId),
    runIterations(),
    deps.runs.listTasks(run.runId),
    deps.learning.listRules(run.projectId),
  ]);
  const recorded = iterations.filter((record) => record.status === 'recorded');
  const promotion = promoteHints({
    projectId: run.projectId,
    hints,
    iterations: recorded,
    existing: rules,
    promoteAt: run.config.learning.promoteAt,
    now,
  });
  await Promise.all([
    ...promotion.create.map((rule) => deps.learning.saveRule(rule, undefined)),
    ...promotion.update.map(({ rule, expectedVersion }) =>
      deps.learning.saveRule(rule, expectedVersion),
    ),
  ]);
  const endedAt = run.endedAt ?? now;
  const candidates = [
    ...extractPatterns({
      runId: run.runId,
      projectId: run.projectId,
      endedAt,
      tasks: tasks.map((task) => ({ taskId: task.taskId, story: task.story, status: task.status })),
      iterations: recorded,
    }),
    ...(await templateCandidates(deps, run, tasks, recorded, endedAt)),
  ];
  const taught = { added: [] as string[], merged: [] as string[], used: 0 };
  // Patterns are taught to the scopes the run shares with; uses are counted where the
  // pattern given came from, which may be the organisation's even when this run shares nothing.
  const teaches: RegistryScope[] = run.config.learning.shareWithOrganisation
    ? [`project:${run.projectId}`, 'org']
    : [`project:${run.projectId}`];
  const scopes = new Set<RegistryScope>([...teaches, ...usedScopes(recorded)]);
  for (const scope of scopes) {
    const changed = await teachScope(deps, run, scope, {
      candidates: teaches.includes(scope) ? candidates : [],
      recorded,
      now,
    });
    taught.added.push(...changed.added);
    taught.merged.push(...changed.merged);
    taught.used += changed.used;
  }
  const report = RunLearningReportSchema.parse({
    runId: run.runId,
    projectId: run.projectId,
    hints: hints.length,
    rulesCreated: promotion.create.map((rule) => rule.ruleId),
    rulesPromoted: promotion.update.map(({ rule }) => rule.ruleId),
    patternsAdded: taught.added,
    patternsMerged: taught.merged,
    patternsUsed: taught.used,
    effect: effectReport(`run ${run.runId}`, taskEffects(run.runId, recorded)),
  } satisfies RunLearningReport);
  await deps.artefacts.put(key, JSON.stringify(report, null, 2), 'application/json');
  return report;
}

function usedScopes(iterations: readonly IterationRecord[]): RegistryScope[] {
  return iterations.flatMap((record) =>
    (record.learning?.injected ?? []).flatMap((injected) =>
      injected.kind === 'pattern' && injected.scope ? [injected.scope] : [],
    ),
  );
}

/** One scope's changes: the run's candidates merged, then the run's uses applied once. */
async function teachScope(
  deps: LoopDeps,
  run: RunRecord,
  scope: RegistryScope,
  input: {
    candidates: Parameters<typeof mergeCandidates>[1];
    recorded: readonly IterationRecord[];
    now: string;
  },
): Promise<{ added: string[]; merged: string[]; used: number }> {
  const existing = await deps.learning.listPatterns(scope);
  const merged = mergeCandidates(existing, input.candidates, scope, input.now);
  const pending = new Map<string, { pattern: RegistryPattern; expectedVersion?: number }>();
  for (const pattern of existing)
    pending.set(pattern.patternId, { pattern, expectedVersion: pattern.version });
  for (const { pattern, expectedVersion } of merged.update)
    pending.set(pattern.patternId, { pattern, expectedVersion });
  for (const pattern of merged.create) pending.set(pattern.patternId, { pattern });
  const changed = new Set([
    ...merged.update.map(({ pattern }) => pattern.patternId),
    ...merged.create.map((pattern) => pattern.patternId),
  ]);
  const uses = countUses(input.recorded);
  let used = 0;
  for (const [patternId, entry] of pending) {
    const counted = uses.get(patternUseKey(scope, patternId));
    if (!counted || entry.pattern.trend.some((point) => point.runId === run.runId)) continue;
    const applied = applyUses(entry.pattern, counted, input.now);
    if (applied === entry.pattern) continue;
    const trend = applied.trend.map((point, index) =>
      index === applied.trend.length - 1 ? { ...point, runId: run.runId } : point,
    );
    pending.set(patternId, { ...entry, pattern: { ...applied, trend } });
    changed.add(patternId);
    used += 1;
  }
  await Promise.all(
    [...changed].map((patternId) => {
      const entry = pending.get(patternId);
      return entry ? deps.learning.savePattern(entry.pattern, entry.expectedVersion) : undefined;
    }),
  );
  return {
    added: merged.create.map((pattern) => pattern.patternId),
    merged: merged.update.map(({ pattern }) => pattern.patternId),
    used,
  };
}
