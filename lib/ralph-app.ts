import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTrustedPublishers } from '../lambdas/adapters/sharing/sharing-design.js';
import { DEFAULT_EGRESS_DOMAINS } from './agent-network.js';
import { REPO_ROOT } from './paths.js';
import type { ModelProvider } from './functions.js';
import { RalphStack, type RalphStackProps } from './ralph-stack.js';

/** Context keys that configure the deployment (`cdk synth -c ralph:destroyOnRemoval=true`). */
export const CONTEXT_KEYS = {
  stackName: 'ralph:stackName',
  destroyOnRemoval: 'ralph:destroyOnRemoval',
  anthropicApiKeySecretName: 'ralph:anthropicApiKeySecretName',
  gitTokenSecretName: 'ralph:gitTokenSecretName',
  /** Secrets of webhook senders (plain strings); only the hooks function reads them. */
  sentrySecretName: 'ralph:sentrySecretName',
  newRelicSecretName: 'ralph:newRelicSecretName',
  /** The header New Relic's workflow puts its token in (else `Authorization: Bearer`). */
  newRelicHeader: 'ralph:newRelicHeader',
  /** A secret with GitHub credentials for investigate runs' pull requests (pull-request step only). */
  gitHubSecretName: 'ralph:gitHubSecretName',
  /** GitHub Enterprise Server's API (`https://HOST/api/v3`); api.github.com by default. */
  gitHubApiUrl: 'ralph:gitHubApiUrl',
  /** `bedrock`: the judge and the proposer call Claude on Amazon Bedrock. */
  modelProvider: 'ralph:modelProvider',
  /** The Run API takes JWTs from this OIDC issuer (with `apiJwtAudience`) instead of SigV4. */
  apiJwtIssuer: 'ralph:apiJwtIssuer',
  /** Comma-separated audiences the JWTs must carry. */
  apiJwtAudience: 'ralph:apiJwtAudience',
  /** Comma-separated browser origins allowed to call the Run API (CORS); none by default. */
  apiCorsOrigins: 'ralph:apiCorsOrigins',
  /** `private`: agent tasks in private subnets behind a NAT gateway, with VPC endpoints. */
  agentSubnets: 'ralph:agentSubnets',
  /** Comma-separated names the agent may resolve, or `default` for DEFAULT_EGRESS_DOMAINS. */
  egressDomains: 'ralph:egressDomains',
  /** Alarm when a run costs more than this many US dollars; no cost alarm when unset. */
  budgetAlarmUsd: 'ralph:budgetAlarmUsd',
  /** The AWS Organizations id (`o-...`) to share learning with; sharing is off without it. */
  sharingOrganizationId: 'ralph:sharingOrganizationId',
  /**
   * The publishers whose signed bundles are imported, as JSON:
   * `[{"account":"111122223333","keyArn":"arn:aws:kms:...:key/...","bucket":"..."}]`.
   */
  sharingTrustedPublishers: 'ralph:sharingTrustedPublishers',
  /**
   * The consumers' sharing buses this stack's announcements are forwarded to: their
   * `SharingBusArn` outputs, comma-separated (or a list in cdk.json).
   */
  sharingConsumerBuses: 'ralph:sharingConsumerBuses',
} as const;

/**
 * Properties of {@link createRalphApp}.
 */
export interface RalphAppProps {
  /**
   * Context merged over the `context` block of `cdk.json`.
   *
   * @default - only `cdk.json` (and, under the CLI, its `-c` values)
   */
  readonly context?: Record<string, unknown>;

  /**
   * Where the cloud assembly is written.
   *
   * @default - the CLI's output directory, or a temporary one
   */
  readonly outdir?: string;

  /**
   * Whether the cdk-nag AwsSolutions pack checks the app during synthesis.
   *
   * @default true
   */
  readonly nag?: boolean;
}

/** The app and its only stack. */
export interface RalphApp {
  readonly app: App;
  readonly stack: RalphStack;
}

/**
 * Builds the CDK app: the ralph-cloud stack, checked by the cdk-nag AwsSolutions pack.
 *
 * The context of `cdk.json` (feature flags) is read here too, so that tests that build
 * the app in-process synthesize exactly what `cdk synth` does.
 *
 * The stack is environment-agnostic unless CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION
 * are both set, so synthesis needs no AWS credentials.
 *
 * @example
 * const { app } = createRalphApp();
 * app.synth();
 */
export function createRalphApp(props: RalphAppProps = {}): RalphApp {
  const app = new App({
    context: { ...cdkJsonContext(), ...props.context },
    outdir: props.outdir,
  });

  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const region = process.env.CDK_DEFAULT_REGION;
  const stackName = stringContext(app, CONTEXT_KEYS.stackName) ?? 'RalphCloud';
  const stack = new RalphStack(app, stackName, {
    description: 'ralph-cloud: autonomous coding-agent loops on Step Functions, Lambda and Fargate',
    env: account && region ? { account, region } : undefined,
    destroyOnRemoval: booleanContext(app, CONTEXT_KEYS.destroyOnRemoval),
    anthropicApiKeySecretName: stringContext(app, CONTEXT_KEYS.anthropicApiKeySecretName),
    gitTokenSecretName: stringContext(app, CONTEXT_KEYS.gitTokenSecretName),
    hooks: {
      sentrySecretName: stringContext(app, CONTEXT_KEYS.sentrySecretName),
      newRelicSecretName: stringContext(app, CONTEXT_KEYS.newRelicSecretName),
      newRelicHeader: stringContext(app, CONTEXT_KEYS.newRelicHeader),
    },
    gitHubSecretName: stringContext(app, CONTEXT_KEYS.gitHubSecretName),
    gitHubApiUrl: stringContext(app, CONTEXT_KEYS.gitHubApiUrl),
    modelProvider: modelProviderContext(app),
    api: apiContext(app),
    ...networkContext(app),
    ...budgetContext(app),
    ...sharingContext(app),
  });

  if (props.nag ?? true) {
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  }
  return { app, stack };
}

/**
 * The `context` block of `cdk.json`: the feature flags every in-process build must share
 * with `cdk synth`.
 */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

/** A comma-separated context value, its items trimmed; undefined when unset or empty. */
function listContext(app: App, key: string): string[] | undefined {
  return stringContext(app, key)
    ?.split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function stringContext(app: App, key: string): string | undefined {
  const value: unknown = app.node.tryGetContext(key);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function modelProviderContext(app: App): ModelProvider | undefined {
  const value = stringContext(app, CONTEXT_KEYS.modelProvider);
  if (value === undefined || value === 'anthropic' || value === 'bedrock') return value;
  throw new Error(
    `context ${CONTEXT_KEYS.modelProvider} must be anthropic or bedrock, not "${value}"`,
  );
}

/** The Run API's context: JWT issuer and audiences (both or neither), CORS origins. */
function apiContext(app: App): RalphStackProps['api'] {
  const list = (key: string) => listContext(app, key);
  const issuer = stringContext(app, CONTEXT_KEYS.apiJwtIssuer);
  const audience = list(CONTEXT_KEYS.apiJwtAudience);
  if ((issuer === undefined) !== (audience === undefined))
    throw new Error(
      `context ${CONTEXT_KEYS.apiJwtIssuer} and ${CONTEXT_KEYS.apiJwtAudience} go together: give both for JWT authorization, or neither for IAM`,
    );
  const corsOrigins = list(CONTEXT_KEYS.apiCorsOrigins);
  return {
    ...(issuer && audience ? { jwt: { issuer, audience } } : {}),
    ...(corsOrigins ? { cors: corsOrigins } : {}),
  };
}

/** The agent's network: its subnets and the domains it may reach. */
function networkContext(app: App): Pick<RalphStackProps, 'agentSubnets' | 'egressDomains'> {
  const subnets = stringContext(app, CONTEXT_KEYS.agentSubnets);
  if (subnets !== undefined && subnets !== 'public' && subnets !== 'private')
    throw new Error(
      `context ${CONTEXT_KEYS.agentSubnets} must be public or private, not "${subnets}"`,
    );
  const domains = listContext(app, CONTEXT_KEYS.egressDomains);
  return {
    ...(subnets ? { agentSubnets: subnets } : {}),
    ...(domains
      ? {
          egressDomains:
            domains.length === 1 && domains[0] === 'default' ? DEFAULT_EGRESS_DOMAINS : domains,
        }
      : {}),
  };
}

/** The cost alarm's budget: a positive number of US dollars (`-c` gives it as a string). */
function budgetContext(app: App): Pick<RalphStackProps, 'budgetAlarmUsd'> {
  const value: unknown = app.node.tryGetContext(CONTEXT_KEYS.budgetAlarmUsd);
  if (value === undefined || value === '') return {};
  const usd = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd <= 0)
    throw new Error(
      `context ${CONTEXT_KEYS.budgetAlarmUsd} must be a positive number of US dollars (for example 5 or 2.50), not ${JSON.stringify(value)}; leave it out for no cost alarm`,
    );
  return { budgetAlarmUsd: usd };
}

/** Sharing's context: the organisation, and the trusted publishers (JSON, or a list in cdk.json). */
function sharingContext(app: App): Pick<RalphStackProps, 'sharing'> {
  const organizationId = stringContext(app, CONTEXT_KEYS.sharingOrganizationId);
  const publishers: unknown = app.node.tryGetContext(CONTEXT_KEYS.sharingTrustedPublishers);
  const given = publishers !== undefined && publishers !== '';
  const consumerBuses = consumerBusesContext(app);
  if (organizationId === undefined) {
    for (const [key, isGiven] of [
      [CONTEXT_KEYS.sharingTrustedPublishers, given],
      [CONTEXT_KEYS.sharingConsumerBuses, consumerBuses.length > 0],
    ] as const)
      if (isGiven)
        throw new Error(
          `context ${key} needs ${CONTEXT_KEYS.sharingOrganizationId}: give the organisation's id (o-...) too`,
        );
    return {};
  }
  const where = `context ${CONTEXT_KEYS.sharingTrustedPublishers}`;
  const trustedPublishers = !given
    ? []
    : parseTrustedPublishers(
        typeof publishers === 'string' ? publishers : JSON.stringify(publishers),
        where,
      );
  return {
    sharing: {
      organizationId,
      trustedPublishers,
      ...(consumerBuses.length > 0 ? { consumerBuses } : {}),
    },
  };
}

/** The consumer buses: comma-separated, or a list of strings in cdk.json; none when unset. */
function consumerBusesContext(app: App): string[] {
  const key = CONTEXT_KEYS.sharingConsumerBuses;
  const value: unknown = app.node.tryGetContext(key);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  if (value === undefined || typeof value === 'string') return listContext(app, key) ?? [];
  throw new Error(
    `context ${key} must be the consumers' SharingBusArn outputs, comma-separated or a list of strings, not ${JSON.stringify(value)}`,
  );
}

function booleanContext(app: App, key: string): boolean {
  const value: unknown = app.node.tryGetContext(key);
  return value === true || value === 'true';
}
