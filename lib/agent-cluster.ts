import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { AgentModelRole } from './agent-model-role.js';
import { AgentVpc, EgressAllowList } from './agent-network.js';
import { BUILD_CONTEXT_EXCLUDES, REPO_ROOT } from './paths.js';
import { RunnerRole } from './runner-role.js';
import type { Storage } from './storage.js';

/**
 * Properties of {@link AgentCluster}.
 */
export interface AgentClusterProps {
  /** The run table and artefact bucket; the iteration runner reads and writes its iteration's. */
  readonly storage: Storage;

  /**
   * The VPC to run agent tasks in.
   *
   * @default - a new VPC in two AZs with flow logs on (see `subnets`)
   */
  readonly vpc?: ec2.IVpc;

  /**
   * The network of the VPC this construct creates: `public` subnets with a public IP per
   * task and no NAT gateway, or `private` subnets behind one NAT gateway with interface
   * endpoints for the AWS services a task uses (see {@link AgentVpc}). Not with `vpc`.
   *
   * @default 'public'
   */
  readonly subnets?: 'public' | 'private';

  /**
   * Limit what the agent reaches: the task's security group lets only HTTPS (443) out, and
   * the VPC resolves only these names (a Route 53 Resolver DNS Firewall; every other name
   * is NXDOMAIN). {@link DEFAULT_EGRESS_DOMAINS} lists what a run on GitHub with npm and the
   * Anthropic API needs.
   *
   * @default - all outbound traffic allowed
   */
  readonly egressDomains?: readonly string[];

  /**
   * The agent calls Claude on Bedrock: it gets a session of a role that may only invoke
   * Anthropic models ({@link AgentModelRole}) instead of an API key, and with
   * `subnets: 'private'` the VPC gets an interface endpoint for Bedrock's runtime.
   *
   * @default false
   */
  readonly bedrockAgent?: boolean;

  /**
   * Subnets for agent tasks. Only used with `vpc`.
   *
   * @default - public subnets when this construct creates the VPC, otherwise private
   * subnets with egress
   */
  readonly vpcSubnets?: ec2.SubnetSelection;

  /**
   * Whether tasks get a public IP. Tasks need one to reach GitHub, the npm registry and
   * the model API from a public subnet without a NAT gateway.
   *
   * @default - true when this construct creates the VPC, false with a given `vpc`
   */
  readonly assignPublicIp?: boolean;

  /**
   * The agent image.
   *
   * @default - built from `agent/Dockerfile` at deploy time, for linux/arm64
   */
  readonly image?: ecs.ContainerImage;

  /**
   * vCPU units of one agent task (1024 = 1 vCPU).
   *
   * @default 1024
   */
  readonly cpu?: number;

  /**
   * Memory of one agent task in MiB; must be valid for `cpu` on Fargate.
   *
   * @default 4096
   */
  readonly memoryLimitMiB?: number;

  /**
   * Ephemeral disk of one agent task in GiB (clones, dependencies, build output).
   *
   * @default - the Fargate default, 20 GiB
   */
  readonly ephemeralStorageGiB?: number;

  /**
   * Secret holding the Anthropic API key, injected as `ANTHROPIC_API_KEY`.
   *
   * @default - no key; the agent must authenticate another way (for example Bedrock)
   */
  readonly anthropicApiKeySecret?: secretsmanager.ISecret;

  /**
   * Secret holding a git token for private repositories and pull requests, injected as
   * `GIT_TOKEN`.
   *
   * @default - no token; only public repositories can be cloned
   */
  readonly gitTokenSecret?: secretsmanager.ISecret;

  /**
   * Extra environment variables for the agent container.
   *
   * @default - only TABLE_NAME, BUCKET_NAME and AWS_REGION
   */
  readonly environment?: Record<string, string>;

  /**
   * Retention of the agent's log group.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;

  /**
   * What happens to the agent's and the flow logs' log groups when the stack is deleted.
   *
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/**
 * Where fresh agents run: an ECS cluster on Fargate (ARM64), one task definition whose
 * container runs the iteration runner of `agent/`, and the network it runs in.
 *
 * The state machine starts one task per iteration with `ecs:runTask.sync`; the fields
 * below are what its `RunAgent` state needs.
 */
export class AgentCluster extends Construct {
  /** The VPC the tasks run in. */
  public readonly vpc: ec2.IVpc;

  /** The ECS cluster. */
  public readonly cluster: ecs.Cluster;

  /** The Fargate task definition of one agent iteration. */
  public readonly taskDefinition: ecs.FargateTaskDefinition;

  /** The agent container. */
  public readonly container: ecs.ContainerDefinition;

  /** Security group of the tasks: no inbound rules, all outbound traffic allowed. */
  public readonly securityGroup: ec2.SecurityGroup;

  /** The subnets tasks are placed in. */
  public readonly subnets: ec2.SelectedSubnets;

  /** Whether tasks get a public IP. */
  public readonly assignPublicIp: boolean;

  /** Log group of the agent container. */
  public readonly logGroup: logs.LogGroup;

  /** The role the runner assumes, scoped to its iteration ({@link RunnerRole}). */
  public readonly runnerRole: iam.Role;

  /** With `bedrockAgent`: the agent's model access ({@link AgentModelRole}). */
  public readonly agentModelRole?: iam.Role;

  constructor(scope: Construct, id: string, props: AgentClusterProps) {
    super(scope, id);

    checkNetworkProps(props);
    const logRemovalPolicy = props.logRemovalPolicy ?? RemovalPolicy.RETAIN;
    const own = props.vpc
      ? undefined
      : new AgentVpc(this, 'Network', {
          subnets: props.subnets ?? 'public',
          bedrock: props.bedrockAgent ?? false,
          logRemovalPolicy,
        });
    this.vpc = props.vpc ?? own!.vpc;
    this.subnets = this.vpc.selectSubnets(
      props.vpcSubnets ?? { subnetType: own?.subnetType ?? ec2.SubnetType.PRIVATE_WITH_EGRESS },
    );
    this.assignPublicIp = props.assignPublicIp ?? own?.subnetType === ec2.SubnetType.PUBLIC;

    this.cluster = new ecs.Cluster(this, 'Cluster', {
      vpc: this.vpc,
      containerInsightsV2: ecs.ContainerInsights.ENABLED,
    });

    this.securityGroup = taskSecurityGroup(this, this.vpc, props.egressDomains);
    own?.admit(this.securityGroup);

    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'TaskDefinition', {
      cpu: props.cpu ?? 1024,
      memoryLimitMiB: props.memoryLimitMiB ?? 4096,
      ephemeralStorageGiB: props.ephemeralStorageGiB,
      runtimePlatform: {
        cpuArchitecture: ecs.CpuArchitecture.ARM64,
        operatingSystemFamily: ecs.OperatingSystemFamily.LINUX,
      },
    });

    this.logGroup = new logs.LogGroup(this, 'LogGroup', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: logRemovalPolicy,
    });

    this.container = this.taskDefinition.addContainer('agent', {
      containerName: 'agent',
      image:
        props.image ??
        ecs.ContainerImage.fromAsset(REPO_ROOT, {
          file: 'agent/Dockerfile',
          platform: Platform.LINUX_ARM64,
          exclude: [...BUILD_CONTEXT_EXCLUDES],
        }),
      essential: true,
      // An init process reaps the zombies left by git, npm and the agent's subprocesses
      // and forwards SIGTERM when Step Functions stops the task.
      linuxParameters: new ecs.LinuxParameters(this, 'LinuxParameters', {
        initProcessEnabled: true,
      }),
      logging: ecs.LogDrivers.awsLogs({ streamPrefix: 'agent', logGroup: this.logGroup }),
      environment: {
        TABLE_NAME: props.storage.table.tableName,
        BUCKET_NAME: props.storage.bucket.bucketName,
        // Explicit, so the runner's SDK clients never depend on the platform to provide it.
        AWS_REGION: Stack.of(this).region,
        ...props.environment,
      },
      secrets: containerSecrets(props),
    });
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason:
        'The plain environment variables are resource names and the region, not secrets; credentials are injected from Secrets Manager.',
    });
    Validations.of(this.taskDefinition.obtainExecutionRole()).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'The execution role needs ecr:GetAuthorizationToken to pull the image, an action without resource-level permissions.',
    });

    // The task role itself reaches no data: the runner assumes the runner role, scoped to
    // its iteration (agent/main.ts), and the agent runs as a user that cannot read either.
    const taskRole = this.taskDefinition.taskRole;
    this.runnerRole = new RunnerRole(this, 'Runner', { storage: props.storage, taskRole }).role;
    this.container.addEnvironment('RALPH_RUNNER_ROLE_ARN', this.runnerRole.roleArn);
    if (props.bedrockAgent) {
      this.agentModelRole = new AgentModelRole(this, 'AgentModel', { taskRole }).role;
      this.container.addEnvironment('RALPH_AGENT_MODEL_ROLE_ARN', this.agentModelRole.roleArn);
    }
  }

  /** Name of the agent container, the target of the state machine's container overrides. */
  public get containerName(): string {
    return this.container.containerName;
  }
}

function checkNetworkProps(props: AgentClusterProps): void {
  if (props.vpcSubnets && !props.vpc)
    throw new Error('AgentCluster: vpcSubnets can only be given together with vpc');
  if (props.subnets && props.vpc)
    throw new Error('AgentCluster: subnets applies to the VPC this construct creates, not to vpc');
}

/**
 * The tasks' security group: nothing in; everything out, or with `egressDomains` HTTPS
 * only, to the names a DNS firewall lets the VPC resolve.
 */
function taskSecurityGroup(
  scope: Construct,
  vpc: ec2.IVpc,
  egressDomains: readonly string[] | undefined,
): ec2.SecurityGroup {
  const group = new ec2.SecurityGroup(scope, 'TaskSecurityGroup', {
    vpc,
    description: egressDomains
      ? 'Ralph agent tasks: no inbound access; HTTPS out to the allowed domains only'
      : 'Ralph agent tasks: no inbound access; outbound to git hosts, registries, APIs',
    allowAllOutbound: egressDomains === undefined,
  });
  if (egressDomains) {
    group.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS');
    new EgressAllowList(scope, 'EgressAllowList', { vpc, domains: egressDomains });
  }
  return group;
}

/** The secrets the container gets from Secrets Manager, by variable name. */
function containerSecrets(props: AgentClusterProps): Record<string, ecs.Secret> {
  return {
    ...(props.anthropicApiKeySecret
      ? { ANTHROPIC_API_KEY: ecs.Secret.fromSecretsManager(props.anthropicApiKeySecret) }
      : {}),
    ...(props.gitTokenSecret
      ? { GIT_TOKEN: ecs.Secret.fromSecretsManager(props.gitTokenSecret) }
      : {}),
  };
}
