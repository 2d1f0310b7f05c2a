/**
 * Error groups and the batches they are investigated in (DynamoDB). Every delivery of one
 * error (same source and fingerprint) lands on one group; a group is investigated at most
 * once at a time (the write that opens it is conditional), and groups of one project that
 * arrive within the batching window go into one investigate run.
 */
import { z } from 'zod';
import { ErrorEventSchema, ErrorSourceSchema } from './error-event.js';
import { ProjectIdSchema } from './project-route.js';

const IsoDate = z.iso.datetime({ offset: true });
const Count = z.number().int().nonnegative();

/**
 * - `unrouted`: no project route names it; kept so that a route added later can be checked.
 * - `pending`: in an open batch, its run not yet working on it.
 * - `investigating`: its run is working on it.
 * - `fixed`: a draft pull request was opened for it.
 * - `given_up`: its investigation ended without a pull request (the report says why).
 * - `held`: routed but not run: the project's hourly limit or its cap of open pull
 *   requests was reached; the next delivery past the limit tries again.
 * - `resolved`: the sender says it is resolved or ignored; a later trigger reopens it.
 *
 * An open investigation is `pending` or `investigating`: repeats then only add to counts.
 * `fixed` and `given_up` are not run again unless the error regresses.
 */
export const ERROR_GROUP_STATUSES = [
  'unrouted',
  'pending',
  'investigating',
  'fixed',
  'given_up',
  'held',
  'resolved',
] as const;
export const ErrorGroupStatusSchema = z.enum(ERROR_GROUP_STATUSES);
export type ErrorGroupStatus = z.infer<typeof ErrorGroupStatusSchema>;

/** The statuses of an open investigation: a repeat only adds to the group's counts. */
export const OPEN_INVESTIGATION: ReadonlySet<ErrorGroupStatus> = new Set([
  'pending',
  'investigating',
]);

/** A pull request opened for a group. */
export const GroupPullRequestSchema = z.strictObject({
  number: z.number().int().positive(),
  htmlUrl: z.string().min(1),
});

export const ErrorGroupSchema = z.strictObject({
  source: ErrorSourceSchema,
  fingerprint: z.string().min(1),
  /** The route's project; absent while `unrouted`. */
  projectId: ProjectIdSchema.optional(),
  status: ErrorGroupStatusSchema,
  /** Why it is in its status, in words (`held`: which limit; `given_up`: the verdict). */
  statusReason: z.string().optional(),
  /** The latest event: what the agent is shown. */
  latest: ErrorEventSchema,
  /** Deliveries received for the group. */
  deliveries: Count,
  /** The sender's counts, the highest seen. */
  seen: Count.default(0),
  usersAffected: Count.default(0),
  firstReceivedAt: IsoDate,
  lastReceivedAt: IsoDate,
  /** Times a fixed or given-up group came back (a regression) and was opened again. */
  regressions: Count.default(0),
  /** The batch and run of its latest investigation. */
  batchId: z.string().optional(),
  runId: z.string().optional(),
  pullRequest: GroupPullRequestSchema.optional(),
  version: z.number().int().positive(),
});
export type ErrorGroup = z.infer<typeof ErrorGroupSchema>;

/** A group named by its key. */
export const ErrorGroupKeySchema = z.strictObject({
  source: ErrorSourceSchema,
  fingerprint: z.string().min(1),
});
export type ErrorGroupKey = z.infer<typeof ErrorGroupKeySchema>;

/**
 * A project's batch: the groups that arrived in one window. It is `open` until its window
 * closes; closing it (a conditional write) fixes its groups, and its run is started from
 * them. A group arriving after the close opens the next batch.
 */
export const InvestigationBatchSchema = z.strictObject({
  projectId: ProjectIdSchema,
  batchId: z.string().min(1),
  status: z.enum(['open', 'closed']),
  openedAt: IsoDate,
  closesAt: IsoDate,
  groups: z.array(ErrorGroupKeySchema),
  /** The investigate run; named when the batch opens, started when it closes. */
  runId: z.string().min(1),
  /**
   * Whether its close was handed to the scheduler. A delivery that finds it open and not
   * scheduled (the scheduler failed after the batch was written) schedules it again.
   */
  closeScheduled: z.boolean().default(false),
  version: z.number().int().positive(),
});
export type InvestigationBatch = z.infer<typeof InvestigationBatchSchema>;
