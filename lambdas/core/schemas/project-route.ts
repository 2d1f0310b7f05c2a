/**
 * A project route: which repository an error belongs to. It maps what a sender names (a
 * Sentry project, a New Relic policy, a CloudWatch alarm) to a repository, the branch a fix
 * starts from, the run config (gates, agent, limits) and what an investigation may do.
 * Stored in the table; managed through `/projects` and `ralph projects`.
 */
import { z } from 'zod';
import { RunConfigSchema } from './config.js';
import { ROUTE_KINDS } from './error-event.js';

const IsoDate = z.iso.datetime({ offset: true });

/** A project id: what runs, rules and patterns are kept under. */
export const ProjectIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'expected a project id: a-z, 0-9 and -');

/** One name a sender uses for the project: a Sentry project slug or id, a policy, an alarm. */
export const RouteMatchSchema = z.strictObject({
  kind: z.enum(ROUTE_KINDS),
  key: z.string().min(1).max(256),
});
export type RouteMatch = z.infer<typeof RouteMatchSchema>;

/** `owner/name` on the code host, where the draft pull request goes. */
export const CodeHostRepoSchema = z.strictObject({
  owner: z.string().regex(/^[A-Za-z0-9-]{1,39}$/, 'a GitHub owner'),
  name: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'a GitHub repository name'),
});

/**
 * What an investigation of this project may do, each with a default. The numbers are the
 * issue's: a 5-minute batching window, two passes, a 1,500-character run context.
 */
export const InvestigateSettingsSchema = z.strictObject({
  /** Events for the project within this window become one run. */
  batchWindowSeconds: z.number().int().nonnegative().max(3600).default(300),
  /** Investigate runs started per hour, at most; events over it are recorded, not run. */
  maxRunsPerHour: z.number().int().positive().default(6),
  /** Open draft pull requests by ralph in the repository, at most; past it no new one opens. */
  maxOpenPullRequests: z.number().int().positive().default(3),
  /** Error groups one run investigates, at most (the highest ranked). */
  maxErrorsPerRun: z.number().int().positive().max(20).default(5),
  /** Analysis passes per error: a low-confidence pass without a fix is followed by another. */
  maxPasses: z.number().int().min(1).max(5).default(2),
  /** The run context (what earlier errors of the run found) given to each agent, in characters. */
  runContextChars: z.number().int().nonnegative().max(20_000).default(1500),
  /** When the repository has no draft pull requests: open a ready one, or none. */
  ifDraftUnsupported: z.enum(['open-ready', 'refuse']).default('open-ready'),
  /** An issue to comment on with the analysis when no pull request is opened. */
  commentOnIssue: z.number().int().positive().optional(),
});
export type InvestigateSettings = z.infer<typeof InvestigateSettingsSchema>;

/** What `PUT /projects/{id}` and `ralph projects set` take. */
export const ProjectRouteBodySchema = z.strictObject({
  matches: z.array(RouteMatchSchema).min(1).max(50),
  /** A git URL, or a local path on a local server (`ralph serve`). */
  repo: z.string().min(1),
  /** The branch a fix starts from and its pull request goes into. */
  baseBranch: z.string().min(1).default('main'),
  /** Where pull requests go; read from a github.com repo URL when absent. */
  codeHost: CodeHostRepoSchema.optional(),
  /** The run config of its investigate runs (gates, agent, limits). */
  config: RunConfigSchema.optional(),
  investigate: InvestigateSettingsSchema.prefault({}),
});
export type ProjectRouteBody = z.input<typeof ProjectRouteBodySchema>;

/** A stored route. */
export const ProjectRouteSchema = z.strictObject({
  projectId: ProjectIdSchema,
  matches: z.array(RouteMatchSchema).min(1),
  repo: z.string().min(1),
  baseBranch: z.string().min(1),
  codeHost: CodeHostRepoSchema.optional(),
  config: RunConfigSchema.optional(),
  investigate: InvestigateSettingsSchema,
  version: z.number().int().positive(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type ProjectRoute = z.infer<typeof ProjectRouteSchema>;

/** `GET /projects`. */
export const ProjectListSchema = z.object({ projects: z.array(ProjectRouteSchema) });
export type ProjectList = z.infer<typeof ProjectListSchema>;

/** `DELETE /projects/{projectId}`. */
export const DeletedProjectSchema = z.object({
  projectId: z.string(),
  deleted: z.literal(true),
});
