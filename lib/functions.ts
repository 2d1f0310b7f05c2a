import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { grantAnthropicModels } from './bedrock-access.js';
import type { FunctionOptions } from './function-defaults.js';
import { createNodejsFunction } from './function-defaults.js';
import { grantDataAccess } from './data-access.js';
import { LOOP_ACCESS } from './loop-access.js';
import { LOOP_HANDLERS, LOOP_STEPS, type LoopStep } from './loop-steps.js';
import { HANDLERS_DIR } from './paths.js';
import type { Storage } from './storage.js';

// Where the orchestration and the tests have always found them.
export { LOOP_STEPS, type LoopStep } from './loop-steps.js';

/** The service the judge and the proposer call. */
export type ModelProvider = 'anthropic' | 'bedrock';

/** One function per loop step; what the orchestration needs to know about them. */
export type LoopFunctionSet = Readonly<Record<LoopStep, lambda.IFunction>>;

interface StepSpec {
  readonly description: string;
  readonly timeout?: Duration;
  /** Calls the model (the judge, the proposer): gets the API key secret. */
  readonly usesModel?: boolean;
  /** Calls GitHub (the pull-request step): gets the GitHub secret, and no other function does. */
  readonly usesGitHub?: boolean;
}

const STEPS: Readonly<Record<LoopStep, StepSpec>> = {
  initRun: {
    description: "Creates or takes over a run and plans the segment's first iteration",
  },
  openFixPullRequest: {
    description:
      "An investigate iteration's verified fix to a draft pull request (or why none, and an issue comment)",
    // The adapter's retries (4 tries with backoff, 10 s each) over a handful of calls.
    timeout: Duration.minutes(3),
    usesGitHub: true,
  },
  collectArtefacts: {
    description:
      "Stores the iteration's change artefact and lists what both evaluation modes score",
  },
  judgeArtefact: {
    description: 'The LLM judge on one artefact (one item of the expensive-mode Map)',
    // Up to 3 tries of 120 s each, with backoff between them.
    timeout: Duration.minutes(8),
    usesModel: true,
  },
  evaluateCheap: {
    description: 'The cheap mode: learned patterns and heuristics over the same artefacts',
    timeout: Duration.minutes(1),
  },
  analyzeGap: {
    description: 'Gap, pattern learning, regression rollback, divergence recovery, convergence',
    // A judge re-run by median and the pattern proposals are model calls.
    timeout: Duration.minutes(15),
    usesModel: true,
  },
  advance: {
    description: 'Records an iteration, runs loop control, decides and plans the next one',
  },
  pauseRun: { description: 'Stores a run as paused' },
  finalizeRun: {
    description: 'Closes the run (or records its failure) and writes its summary',
    timeout: Duration.minutes(5),
  },
};

/**
 * Properties of {@link LoopFunctions}.
 */
export interface LoopFunctionsProps {
  /** The run table and artefact bucket; each step gets exactly its LOOP_ACCESS on them. */
  readonly storage: Storage;

  /**
   * The Anthropic API key, read by the functions that call the model; without it the
   * judge cannot run and evaluation-enabled runs fail at their first judge step.
   *
   * @default - none
   */
  readonly anthropicApiKeySecret?: secretsmanager.ISecret;

  /**
   * GitHub credentials for investigate runs' pull requests: JSON
   * `{"kind":"token","token":...}` or `{"kind":"app","appId":...,"installationId":...,"privateKeyPem":...}`
   * (or a bare token). Read by the pull-request step only; without it, a verified fix is
   * refused with that reason.
   *
   * @default - none
   */
  readonly gitHubSecret?: secretsmanager.ISecret;

  /**
   * GitHub's API: GitHub Enterprise Server's `https://HOST/api/v3`.
   *
   * @default 'https://api.github.com'
   */
  readonly gitHubApiUrl?: string;

  /**
   * `bedrock`: the judge and the proposer call Claude on Amazon Bedrock in the stack's
   * region (InvokeModel, no API key) instead of the Anthropic API.
   *
   * @default 'anthropic'
   */
  readonly modelProvider?: ModelProvider;

  /**
   * Our model ids (`claude-sonnet-4-6`) → Bedrock model or inference-profile ids
   * (`us.anthropic.claude-sonnet-4-6`); ids not listed are sent as they are.
   *
   * @default - none
   */
  readonly bedrockModelIds?: Readonly<Record<string, string>>;

  /**
   * Options applied to every function; steps with their own timeout keep it.
   *
   * @default - the defaults of `createNodejsFunction`
   */
  readonly functionOptions?: FunctionOptions;
}

/**
 * The Lambda functions the run-loop state machine calls, one per handler in
 * `lambdas/handlers/`, each allowed only the actions its code calls, on the items and
 * objects it touches (lib/loop-access.ts).
 */
export class LoopFunctions extends Construct implements LoopFunctionSet {
  /** `lambdas/handlers/init-run.ts` */
  public readonly initRun: NodejsFunction;
  /** `lambdas/handlers/open-fix-pull-request.ts` */
  public readonly openFixPullRequest: NodejsFunction;
  /** `lambdas/handlers/collect-artefacts.ts` */
  public readonly collectArtefacts: NodejsFunction;
  /** `lambdas/handlers/judge-artefact.ts` */
  public readonly judgeArtefact: NodejsFunction;
  /** `lambdas/handlers/evaluate-cheap.ts` */
  public readonly evaluateCheap: NodejsFunction;
  /** `lambdas/handlers/analyze-gap.ts` */
  public readonly analyzeGap: NodejsFunction;
  /** `lambdas/handlers/advance.ts` */
  public readonly advance: NodejsFunction;
  /** `lambdas/handlers/pause-run.ts` */
  public readonly pauseRun: NodejsFunction;
  /** `lambdas/handlers/finalize-run.ts` */
  public readonly finalizeRun: NodejsFunction;

  constructor(scope: Construct, id: string, props: LoopFunctionsProps) {
    super(scope, id);

    const bedrock = props.modelProvider === 'bedrock';
    const build = (step: LoopStep): NodejsFunction => {
      const spec = STEPS[step];
      const fn = createNodejsFunction(this, pascalCase(step), {
        ...props.functionOptions,
        timeout: spec.timeout ?? props.functionOptions?.timeout,
        entry: join(HANDLERS_DIR, `${LOOP_HANDLERS[step]}.ts`),
        description: spec.description,
        environment: {
          // The names the handlers read (lambdas/handlers/environment.ts).
          TABLE_NAME: props.storage.table.tableName,
          BUCKET_NAME: props.storage.bucket.bucketName,
          ...(spec.usesModel ? modelEnvironment(props) : {}),
          ...(spec.usesGitHub ? gitHubEnvironment(props) : {}),
        },
      });
      grantDataAccess(fn, LOOP_ACCESS[step], props.storage);
      if (spec.usesModel && bedrock) grantAnthropicModels(fn, fn);
      else if (spec.usesModel) props.anthropicApiKeySecret?.grantRead(fn);
      if (spec.usesGitHub) props.gitHubSecret?.grantRead(fn);
      return fn;
    };

    this.initRun = build('initRun');
    this.openFixPullRequest = build('openFixPullRequest');
    this.collectArtefacts = build('collectArtefacts');
    this.judgeArtefact = build('judgeArtefact');
    this.evaluateCheap = build('evaluateCheap');
    this.analyzeGap = build('analyzeGap');
    this.advance = build('advance');
    this.pauseRun = build('pauseRun');
    this.finalizeRun = build('finalizeRun');
  }

  /** Every function, in loop order. */
  public get all(): readonly NodejsFunction[] {
    return LOOP_STEPS.map((step) => this[step]);
  }
}

/** What a model-calling handler reads (lambdas/handlers/environment.ts). */
function modelEnvironment(props: LoopFunctionsProps): Record<string, string> {
  if (props.modelProvider === 'bedrock')
    return {
      MODEL_PROVIDER: 'bedrock',
      ...(props.bedrockModelIds
        ? { BEDROCK_MODEL_IDS: JSON.stringify(props.bedrockModelIds) }
        : {}),
    };
  return props.anthropicApiKeySecret
    ? { ANTHROPIC_API_KEY_SECRET_ARN: props.anthropicApiKeySecret.secretArn }
    : {};
}

/** What the pull-request handler reads (lambdas/handlers/fix-pull-request-environment.ts). */
function gitHubEnvironment(props: LoopFunctionsProps): Record<string, string> {
  return {
    ...(props.gitHubSecret ? { GITHUB_SECRET_ARN: props.gitHubSecret.secretArn } : {}),
    ...(props.gitHubApiUrl ? { GITHUB_API_URL: props.gitHubApiUrl } : {}),
  };
}

/** `initRun` → `InitRun`: construct ids and ASL placeholder names use PascalCase. */
export function pascalCase(step: LoopStep): string {
  return step.charAt(0).toUpperCase() + step.slice(1);
}
