import {
  OpenFixPullRequestInputSchema,
  openFixPullRequest,
} from '../core/steps/open-fix-pull-request.js';
import type { FixPullRequestDeps } from '../core/steps/fix-pull-request-deps.js';
import { fixPullRequestDepsFromEnvironment } from './fix-pull-request-environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** An investigate iteration's verdict to the code host: a draft pull request, or why none. */
export const makeOpenFixPullRequestHandler = (options: StepHandlerOptions<FixPullRequestDeps>) =>
  stepHandler(OpenFixPullRequestInputSchema, openFixPullRequest, options);

export const handler = makeOpenFixPullRequestHandler({ deps: fixPullRequestDepsFromEnvironment });
