/**
 * Where `ralph patterns` (registry) and `ralph rules` read and write: the local stack's
 * learning store. A Run API has no routes for them yet, so `--endpoint` is refused (exit 2)
 * rather than quietly reading the local data directory instead of the deployment.
 */
import { registryScopes } from '../../../lambdas/core/learning/pattern-query.js';
import {
  ProjectRuleSchema,
  RegistryScopeSchema,
  type RegistryScope,
} from '../../../lambdas/core/schemas/learning.js';
import { parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import type { LearningStore } from '../../../lambdas/learning-ports.js';
import type { LocalStack } from '../../../local/local-stack.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { withSession } from '../session.js';

export interface LearningSession {
  store: LearningStore;
  /** Now, by the stack's clock (ISO). */
  now(): string;
  /** Projects this data dir knows: those of its runs and its project routes, sorted. */
  projects(): Promise<string[]>;
  /** `org` and each known project's scope: what the registry holds, as far as it can be told. */
  scopes(): Promise<RegistryScope[]>;
}

/** Runs `work` on the local stack's learning store; refuses a Run API. */
export async function withLearning<T>(
  command: string,
  options: BackendOptions,
  work: (session: LearningSession) => Promise<T>,
): Promise<T> {
  refuseEndpoint(command, options);
  return withSession(options, ({ stack }) => {
    const projects = () => knownProjects(stack);
    return work({
      store: stack.learning,
      now: () => stack.deps.clock.now().toISOString(),
      projects,
      scopes: async () => registryScopes(await projects()),
    });
  });
}

/** Before anything is read: these commands have no Run API routes yet. */
export function refuseEndpoint(command: string, options: BackendOptions): void {
  if (options.endpoint)
    throw new CliError(
      `ralph ${command} works on the local data directory only for now (${options.dataDir}); unset --endpoint / RALPH_ENDPOINT to use it`,
      EXIT.invalidInput,
    );
}

/** A `--scope` value, checked: `org` or `project:<id>`. */
export function checkedScope(value: string): RegistryScope {
  return parseOrThrow(RegistryScopeSchema, value, '--scope');
}

/** A `--project` value, checked. */
export function checkedProject(value: string): string {
  return parseOrThrow(ProjectRuleSchema.shape.projectId, value, '--project');
}

async function knownProjects(stack: LocalStack): Promise<string[]> {
  const ids = new Set((await stack.projectRoutes.listRoutes()).map((route) => route.projectId));
  let cursor: string | undefined;
  do {
    const page = await stack.deps.runs.listRuns(cursor === undefined ? {} : { cursor });
    for (const run of page.runs) ids.add(run.projectId);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  // A run's project id is a slug already (projectIdOf); one that could not name a scope is
  // left out rather than failing the listing.
  return [...ids].filter((id) => RegistryScopeSchema.safeParse(`project:${id}`).success).sort();
}
