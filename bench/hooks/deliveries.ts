/**
 * The Sentry `issue` deliveries the bench posts: the recorded `issue.created` payload with
 * what each workload changes, so that every delivery has bytes of its own (a fresh
 * signature: never taken for a replay):
 *
 *   new-groups  a distinct issue id each (a group created, its project's batch joined),
 *               MAX_BATCH_GROUPS issues per Sentry project so that no batch is ever full
 *               (a full batch holds the group instead: another path);
 *   repeats     one issue of one project again and again, its count one higher each time
 *               (the group found, its counts added).
 */
import { MAX_BATCH_GROUPS } from '../../lambdas/core/intake/batching.js';

export const WORKLOADS = ['new-groups', 'repeats'] as const;
export type Workload = (typeof WORKLOADS)[number];

/** The Sentry project (and project route) of the repeated issue. */
export const REPEAT_PROJECT = 'bench-repeat';

/** The fields of a recorded Sentry issue payload the bench changes. */
interface IssuePayload {
  data: {
    issue: {
      id: string;
      shortId: string;
      count: string;
      lastSeen: string;
      project: { id: string; name: string; slug: string };
    };
  };
}

/** Sentry's ids are digits: the bench's start far above the recorded ones. */
const FIRST_ISSUE_ID = 9_000_000_000;
const REPEAT_ISSUE_ID = String(FIRST_ISSUE_ID - 1);

/** The index of the Sentry project (and project route) of the `n`th new-group delivery. */
const projectIndex = (n: number): number => Math.floor(n / MAX_BATCH_GROUPS);

/** The Sentry project slug (and project id) the `n`th new-group delivery names. */
export const newGroupProject = (n: number): string => `bench-new-${projectIndex(n)}`;

/** Project routes the first `deliveries` new-group deliveries need, and the repeats' one. */
export function projectsFor(deliveries: number): string[] {
  const count = Math.ceil(deliveries / MAX_BATCH_GROUPS);
  return [
    ...Array.from({ length: count }, (_, i) => newGroupProject(i * MAX_BATCH_GROUPS)),
    REPEAT_PROJECT,
  ];
}

/**
 * The `n`th delivery (from 0) of `workload`, as the JSON text Sentry posts, made from the
 * recorded payload `template`.
 *
 * @example
 * issueBody(fixtureText, 'repeats', 3); // the repeated issue, count "4"
 */
export function issueBody(template: string, workload: Workload, n: number): string {
  const payload = JSON.parse(template) as IssuePayload;
  const issue = payload.data.issue;
  const fresh = workload === 'new-groups';
  const slug = fresh ? newGroupProject(n) : REPEAT_PROJECT;
  issue.id = fresh ? String(FIRST_ISSUE_ID + n) : REPEAT_ISSUE_ID;
  issue.shortId = `${slug.toUpperCase()}-${fresh ? n : 0}`;
  issue.count = String(fresh ? 1 : n + 1);
  issue.lastSeen = new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();
  const projectId = fresh ? String(1000 + projectIndex(n)) : '999';
  issue.project = { id: projectId, name: slug, slug };
  return JSON.stringify(payload);
}
