import type { StackProps } from 'aws-cdk-lib';
import { Annotations, Aws, CfnOutput, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { AgentCluster } from './agent-cluster.js';
import { AlarmTopic } from './alarm-topic.js';
import { RunApi, type RunApiOptions } from './api.js';
import { LoopDashboard } from './dashboard.js';
import { ExecutionWatch } from './execution-watch.js';
import { IncidentIntake } from './incident-intake.js';
import { FUNCTION_DEFAULTS } from './function-defaults.js';
import { LoopFunctions, type ModelProvider } from './functions.js';
import { LoopAlarms } from './loop-alarms.js';
import { Orchestration } from './orchestration.js';
import { Sharing, type SharingProps } from './sharing.js';
import { Storage } from './storage.js';

/**
 * Properties of {@link RalphStack}.
 */
export interface RalphStackProps extends StackProps {
  /**
   * Make stateful resources disposable (development stacks only).
   *
   * @default false
   */
  readonly destroyOnRemoval?: boolean;

  /**
   * Name of an existing Secrets Manager secret holding the Anthropic API key; the agent
   * container gets it as `ANTHROPIC_API_KEY`. Created outside the stack so that the key
   * never passes through a template.
   *
   * @default - none
   */
  readonly anthropicApiKeySecretName?: string;

  /**
   * Where the judge and the proposer run: the Anthropic API (with the key above) or Claude
   * on Amazon Bedrock in the stack's region.
   *
   * @default 'anthropic'
   */
  readonly modelProvider?: ModelProvider;

  /** Our model ids → Bedrock model or inference-profile ids (Bedrock only). */
  readonly bedrockModelIds?: Readonly<Record<string, string>>;

  /**
   * Name of an existing Secrets Manager secret holding a git token; the agent container
   * gets it as `GIT_TOKEN`.
   *
   * @default - none
   */
  readonly gitTokenSecretName?: string;

  /**
   * Names of existing Secrets Manager secrets (plain strings) that authenticate webhook
   * senders: the Sentry integration's client secret, and the token a New Relic workflow
   * sends (in `newRelicHeader`, else as a bearer token). Only the hooks function reads them.
   *
   * @default - none: that sender's deliveries are refused with 401
   */
  readonly hooks?: {
    readonly sentrySecretName?: string;
    readonly newRelicSecretName?: string;
    readonly newRelicHeader?: string;
  };

  /**
   * Name of an existing Secrets Manager secret holding GitHub credentials for investigate
   * runs' draft pull requests (a token, or a GitHub App's id, installation and private key
   * as JSON); only the pull-request step reads it.
   *
   * @default - none: verified fixes are refused with that reason
   */
  readonly gitHubSecretName?: string;

  /**
   * GitHub's API for those pull requests (GitHub Enterprise Server: `https://HOST/api/v3`).
   *
   * @default 'https://api.github.com'
   */
  readonly gitHubApiUrl?: string;

  /**
   * The agent tasks' network: `public` subnets with public IPs (no NAT gateway), or
   * `private` subnets behind a NAT gateway with interface endpoints for AWS services.
   *
   * @default 'public'
   */
  readonly agentSubnets?: 'public' | 'private';

  /**
   * Names the agent may resolve (HTTPS only); every other name is blocked by a DNS
   * firewall. `DEFAULT_EGRESS_DOMAINS` (lib/agent-network.ts) is what GitHub, npm and the
   * Anthropic API need.
   *
   * @default - all outbound traffic allowed
   */
  readonly egressDomains?: readonly string[];

  /**
   * The Run API's authorization (JWT instead of IAM), CORS origins and throttling.
   *
   * @default - IAM authorization on every route, no CORS, default throttling
   */
  readonly api?: RunApiOptions;

  /**
   * Alarm (to the alarm topic) when a run costs more than this many US dollars.
   *
   * @default - no cost alarm
   */
  readonly budgetAlarmUsd?: number;

  /**
   * Share learning with the organisation: its id, and the publishers whose signed bundles
   * this stack imports (lib/sharing.ts).
   *
   * @default - no sharing
   */
  readonly sharing?: Pick<SharingProps, 'organizationId' | 'trustedPublishers' | 'consumerBuses'>;
}

/**
 * The ralph-cloud deployment. It only composes the constructs: storage, the loop's
 * functions, the agent cluster, the run-loop state machine and the Run API in front of it.
 */
export class RalphStack extends Stack {
  /** Table and artefact bucket. */
  public readonly storage: Storage;

  /** The Lambda steps of the run loop. */
  public readonly functions: LoopFunctions;

  /** Where agent containers run. */
  public readonly agentCluster: AgentCluster;

  /** The run-loop state machine. */
  public readonly orchestration: Orchestration;

  /** The Run API: start, follow, cancel and resume runs over HTTP. */
  public readonly api: RunApi;

  /** Ends a run failed when its execution ends outside the loop. */
  public readonly executionWatch: ExecutionWatch;

  /** Error-triggered runs' way in: the hook routes, the alarm rule and topic, the batch closer. */
  public readonly intake: IncidentIntake;

  /** Where the alarms go (output `AlarmTopicArn`). */
  public readonly alarms: AlarmTopic;

  /** Alarms on the loop's metrics: runs aborted, judge unreliable, divergence, run cost. */
  public readonly loopAlarms: LoopAlarms;

  /** The loop's metrics by project (outputs `DashboardName` and `DashboardUrl`). */
  public readonly dashboard: LoopDashboard;

  /** Learning shared with the organisation, when configured. */
  public readonly sharing?: Sharing;

  constructor(scope: Construct, id: string, props: RalphStackProps = {}) {
    super(scope, id, props);

    // A development stack leaves nothing behind; otherwise data and logs outlive it.
    const logRemovalPolicy = props.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    this.storage = new Storage(this, 'Storage', { destroyOnRemoval: props.destroyOnRemoval });
    const storage = this.storage;

    const anthropicApiKeySecret = this.importSecret(
      'AnthropicApiKey',
      props.anthropicApiKeySecretName,
    );
    this.functions = new LoopFunctions(this, 'Functions', {
      storage,
      anthropicApiKeySecret,
      gitHubSecret: this.importSecret('GitHubCredentials', props.gitHubSecretName),
      ...(props.gitHubApiUrl ? { gitHubApiUrl: props.gitHubApiUrl } : {}),
      ...(props.modelProvider ? { modelProvider: props.modelProvider } : {}),
      ...(props.bedrockModelIds ? { bedrockModelIds: props.bedrockModelIds } : {}),
      functionOptions: { logRemovalPolicy },
    });

    this.agentCluster = new AgentCluster(this, 'AgentCluster', {
      storage,
      logRemovalPolicy,
      anthropicApiKeySecret,
      gitTokenSecret: this.importSecret('GitToken', props.gitTokenSecretName),
      ...(props.agentSubnets ? { subnets: props.agentSubnets } : {}),
      ...(props.egressDomains ? { egressDomains: props.egressDomains } : {}),
      bedrockAgent: props.modelProvider === 'bedrock',
    });

    this.alarms = new AlarmTopic(this, 'Alarms', { destroyOnRemoval: props.destroyOnRemoval });
    this.orchestration = new Orchestration(this, 'Orchestration', {
      functions: this.functions,
      agentCluster: this.agentCluster,
      logRemovalPolicy,
      alarmActions: [this.alarms.action],
    });

    this.api = new RunApi(this, 'Api', {
      ...props.api,
      storage,
      stateMachine: this.orchestration.stateMachine,
      stateMachineName: this.orchestration.stateMachineName,
      functionOptions: { logRemovalPolicy },
    });

    this.intake = this.createIntake(props, logRemovalPolicy);

    this.executionWatch = new ExecutionWatch(this, 'ExecutionWatch', {
      storage,
      stateMachine: this.orchestration.stateMachine,
      stateMachineName: this.orchestration.stateMachineName,
      functionOptions: { logRemovalPolicy },
    });

    this.loopAlarms = this.createLoopAlarms(props);
    this.dashboard = this.createDashboard(FUNCTION_DEFAULTS.serviceName);
    if (props.sharing) this.sharing = this.createSharing(props.sharing, props, logRemovalPolicy);

    if (!props.anthropicApiKeySecretName && props.modelProvider !== 'bedrock')
      Annotations.of(this).addWarningV2(
        'ralph:no-model',
        'No model is configured: the judge and the proposer have no model and the agent has no API key. Deploy with -c ralph:anthropicApiKeySecretName=<secret> or -c ralph:modelProvider=bedrock.',
      );
    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'SentryHookUrl', {
      value: `${this.api.url}hooks/sentry`,
      description: "The Sentry integration's webhook URL",
    });
    new CfnOutput(this, 'NewRelicHookUrl', {
      value: `${this.api.url}hooks/newrelic`,
      description: "A New Relic workflow webhook destination's URL",
    });
    new CfnOutput(this, 'AlarmIntakeTopicArn', {
      value: this.intake.alarmTopic.topicArn,
      description:
        'Point a CloudWatch alarm action here to investigate it (alarms are also taken from EventBridge)',
    });
    new CfnOutput(this, 'TableName', { value: storage.table.tableName });
    new CfnOutput(this, 'BucketName', { value: storage.bucket.bucketName });
    new CfnOutput(this, 'StateMachineArn', {
      value: this.orchestration.stateMachine.stateMachineArn,
    });
  }

  /** The loop's dashboard, and where to find it and where its alarms go. */
  /** Alarms on the metrics the functions publish under their service name (POWERTOOLS_SERVICE_NAME). */
  private createLoopAlarms(props: RalphStackProps): LoopAlarms {
    return new LoopAlarms(this, 'LoopAlarms', {
      service: FUNCTION_DEFAULTS.serviceName,
      actions: [this.alarms.action],
      ...(props.budgetAlarmUsd === undefined ? {} : { budgetAlarmUsd: props.budgetAlarmUsd }),
    });
  }

  private createDashboard(service: string): LoopDashboard {
    const dashboard = new LoopDashboard(this, 'Dashboard', { service });
    const name = dashboard.dashboard.dashboardName;
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description:
        'Subscribe to be told of failed, timed-out or aborted executions, aborted runs, an unreliable judge, divergence and runs over budget',
    });
    new CfnOutput(this, 'DashboardName', { value: name });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards:name=${name}`,
      description: "The loop's dashboard: convergence, learning, loop health and cost by project",
    });
    return dashboard;
  }

  /** The hook routes, the alarm rule and topic and the batch closer, with the senders' secrets. */
  private createIntake(props: RalphStackProps, logRemovalPolicy: RemovalPolicy): IncidentIntake {
    const sentryClientSecret = this.importSecret(
      'SentryClientSecret',
      props.hooks?.sentrySecretName,
    );
    const newRelicTokenSecret = this.importSecret('NewRelicToken', props.hooks?.newRelicSecretName);
    return new IncidentIntake(this, 'Intake', {
      storage: this.storage,
      runLoop: this.orchestration.stateMachine,
      httpApi: this.api.httpApi,
      ...(sentryClientSecret ? { sentryClientSecret } : {}),
      ...(newRelicTokenSecret ? { newRelicTokenSecret } : {}),
      ...(props.hooks?.newRelicHeader ? { newRelicHeader: props.hooks.newRelicHeader } : {}),
      functionOptions: { logRemovalPolicy },
      ...(props.destroyOnRemoval === undefined ? {} : { destroyOnRemoval: props.destroyOnRemoval }),
    });
  }

  /** Learning shared with the organisation, with the outputs its publishers and consumers need. */
  private createSharing(
    sharing: NonNullable<RalphStackProps['sharing']>,
    props: RalphStackProps,
    logRemovalPolicy: RemovalPolicy,
  ): Sharing {
    const created = new Sharing(this, 'Sharing', {
      ...sharing,
      storage: this.storage,
      destroyOnRemoval: props.destroyOnRemoval ?? false,
      functionOptions: { logRemovalPolicy },
    });
    created.addOutputs(this);
    return created;
  }

  private importSecret(id: string, name: string | undefined): secretsmanager.ISecret | undefined {
    return name ? secretsmanager.Secret.fromSecretNameV2(this, id, name) : undefined;
  }
}
