/**
 * An investigate run's request, made from a closed batch: its error groups, ranked and
 * capped, become the run's tasks. Each group is written as a story too (`ERR-<short>`), so
 * the loop plans, counts and reports them as it does prd.json's stories; what makes the
 * iteration an investigation is the request's `investigation`, which the runner reads.
 */
import type { ErrorGroup, InvestigationBatch } from '../schemas/error-group.js';
import type { InvestigatedError } from '../schemas/investigation.js';
import type { UserStory } from '../schemas/prd.js';
import type { ProjectRoute } from '../schemas/project-route.js';
import type { RepoRef } from '../schemas/run.js';
import type { z } from 'zod';
import type { RunRequest } from '../schemas/run-request.js';
import { RunRequestSchema } from '../schemas/run-request.js';
import { rankGroups } from './rank.js';
import { investigateTaskId } from './short-fingerprint.js';

/** The longest story title: the error's own title is cut to fit. */
const TITLE_CHARS = 120;

export interface InvestigationPlan {
  readonly request: RunRequest;
  /** Each task's group, as the batch closed: stored beside the request for the runner. */
  readonly tasks: readonly { readonly taskId: string; readonly group: ErrorGroup }[];
  /** Groups past the run's cap (`maxErrorsPerRun`): left for a later batch. */
  readonly left: readonly ErrorGroup[];
}

/**
 * The run request for `batch`: its groups ranked, the first `maxErrorsPerRun` as tasks.
 *
 * @example
 * const { request, tasks } = investigationRequest({ route, repo, batch, groups, runId, now });
 */
export function investigationRequest(input: {
  route: ProjectRoute;
  repo: RepoRef;
  batch: InvestigationBatch;
  groups: readonly ErrorGroup[];
  runId: string;
  now: Date;
}): InvestigationPlan {
  const { route, batch, runId, now } = input;
  const ranked = rankGroups(input.groups, now);
  const taken = ranked.slice(0, route.investigate.maxErrorsPerRun);
  const errors: InvestigatedError[] = taken.map(({ group, score }) => ({
    source: group.source,
    fingerprint: group.fingerprint,
    taskId: investigateTaskId(group),
    score: Math.round(score * 1000) / 1000,
  }));
  const request = RunRequestSchema.parse({
    runId,
    projectId: route.projectId,
    repo: input.repo,
    prdPath: 'prd.json',
    prd: {
      project: route.projectId,
      // Never checked out: each fix has its own branch (ralph/fix/<short>).
      branchName: `ralph/investigate/${runId}`,
      description: `Investigate ${taken.length} error group(s) of ${route.projectId} (batch ${batch.batchId})`,
      userStories: taken.map(({ group }, index) => story(group, index + 1)),
    },
    config: route.config ?? {},
    submittedAt: now.toISOString(),
    investigation: {
      batchId: batch.batchId,
      projectId: route.projectId,
      baseBranch: route.baseBranch,
      ...(route.codeHost === undefined ? {} : { codeHost: route.codeHost }),
      settings: route.investigate,
      errors,
    },
  } satisfies z.input<typeof RunRequestSchema>);
  return {
    request,
    tasks: taken.map(({ group }) => ({ taskId: investigateTaskId(group), group })),
    left: ranked.slice(taken.length).map(({ group }) => group),
  };
}

/** A group as a story: what the loop and the reports show for its task. */
function story(group: ErrorGroup, priority: number): UserStory {
  const { latest } = group;
  const title = `Investigate: ${latest.title}`;
  const where = latest.culprit === undefined ? '' : ` at ${latest.culprit}`;
  return {
    id: investigateTaskId(group),
    title: title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1)}…` : title,
    description: `A ${latest.level} from ${group.source}${where}: ${latest.title}. Seen ${Math.max(group.seen, group.deliveries)} time(s), ${group.usersAffected} user(s) affected.`,
    acceptanceCriteria: [
      'The root cause is found and written down with a confidence',
      'A fix, when there is one, keeps every gate that passed before it passing',
    ],
    priority,
    passes: false,
    ...(latest.links.web === undefined ? {} : { notes: latest.links.web }),
  };
}
