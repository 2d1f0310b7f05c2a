/**
 * What the iteration runner may do in AWS, shared by the session policy it assumes its role
 * with (run-session.ts) and the role's own policy (lib/runner-role.ts), so the ceiling and
 * the session cannot drift apart. Plain data: the CDK code imports it.
 */

/** What the runner does on the table: read its run, claim its iteration (run-store.ts). */
export const RUNNER_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:UpdateItem'] as const;

/**
 * The partitions a runner role may touch: runs (`runStoreKeys.runPk`, run-items.ts; a
 * test keeps the two in step). A session narrows it to its own run.
 */
export const RUNNER_PARTITIONS = ['RUN#*'] as const;

/** What it does on artefacts: read the plan, write what the iteration produced (s3.ts). */
export const RUNNER_OBJECT_ACTIONS = ['s3:GetObject', 's3:PutObject'] as const;

/**
 * The object keys a runner role may ever touch, by pattern: an iteration's artefacts and a
 * progress archive (`artefactKeys`). A session narrows them to its own iteration.
 */
export const RUNNER_OBJECTS = ['runs/*/iterations/*', 'runs/*/progress-archive/*'] as const;

/** Written by the judge step only: a runner must not plant its own verdict. */
export const RUNNER_DENIED_OBJECTS = ['runs/*/iterations/*/expensive/*'] as const;
