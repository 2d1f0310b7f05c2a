import type { RemovalPolicy } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as route53resolver from 'aws-cdk-lib/aws-route53resolver';
import { Construct } from 'constructs';

/**
 * The hosts an agent needs to clone, install, push and call the model, for
 * `egressDomains` when nothing else is given: the Anthropic API, GitHub (and its content
 * and package hosts), the npm registry, and AWS's own endpoints (the image pull, logs,
 * STS, and the table and bucket through their gateway endpoints still resolve these).
 */
export const DEFAULT_EGRESS_DOMAINS = [
  'api.anthropic.com',
  'github.com',
  '*.github.com',
  '*.githubusercontent.com',
  'registry.npmjs.org',
  'amazonaws.com',
  '*.amazonaws.com',
] as const;

/** How agent tasks reach the internet. */
export interface AgentNetworkProps {
  /**
   * `public`: public subnets and a public IP per task, no NAT gateway (the cheapest).
   * `private`: private subnets behind one NAT gateway, no public IP, and interface
   * endpoints for the AWS services the task uses, so AWS traffic stays off the internet.
   */
  readonly subnets: 'public' | 'private';
  /** Also an interface endpoint for Bedrock's runtime (the agent calls Claude there). */
  readonly bedrock?: boolean;
  readonly logRemovalPolicy: RemovalPolicy;
}

/** The VPC this construct creates for the agent tasks. */
export class AgentVpc extends Construct {
  public readonly vpc: ec2.Vpc;
  public readonly subnetType: ec2.SubnetType;
  /** The interface endpoints (private subnets only): closed until `admit` opens them. */
  public readonly interfaceEndpoints: ec2.InterfaceVpcEndpoint[] = [];

  constructor(scope: Construct, id: string, props: AgentNetworkProps) {
    super(scope, id);
    const isPrivate = props.subnets === 'private';
    this.subnetType = isPrivate ? ec2.SubnetType.PRIVATE_WITH_EGRESS : ec2.SubnetType.PUBLIC;
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      // Public: tasks get public IPs instead, a NAT gateway would cost more than the agents.
      natGateways: isPrivate ? 1 : 0,
      subnetConfiguration: [
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        ...(isPrivate
          ? [{ name: 'agents', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 }]
          : []),
      ],
      // Free gateway endpoints keep table and bucket traffic on the AWS network.
      gatewayEndpoints: {
        S3: { service: ec2.GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB },
      },
    });
    this.vpc.addFlowLog('FlowLog', {
      destination: ec2.FlowLogDestination.toCloudWatchLogs(
        new logs.LogGroup(this, 'FlowLogGroup', {
          retention: logs.RetentionDays.ONE_MONTH,
          removalPolicy: props.logRemovalPolicy,
        }),
      ),
      // Rejected traffic is what matters for an egress-only network, and costs far less to log.
      trafficType: ec2.FlowLogTrafficType.REJECT,
    });
    if (isPrivate) this.addInterfaceEndpoints(props.bedrock ?? false);
  }

  /** What a task calls in AWS besides the table and bucket: image pull, logs, STS, secrets. */
  private addInterfaceEndpoints(bedrock: boolean): void {
    const services: Record<string, ec2.InterfaceVpcEndpointAwsService> = {
      EcrApi: ec2.InterfaceVpcEndpointAwsService.ECR,
      EcrDocker: ec2.InterfaceVpcEndpointAwsService.ECR_DOCKER,
      Logs: ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS,
      Sts: ec2.InterfaceVpcEndpointAwsService.STS,
      SecretsManager: ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER,
      ...(bedrock ? { BedrockRuntime: ec2.InterfaceVpcEndpointAwsService.BEDROCK_RUNTIME } : {}),
    };
    for (const [id, service] of Object.entries(services))
      this.interfaceEndpoints.push(
        this.vpc.addInterfaceEndpoint(id, {
          service,
          subnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
          privateDnsEnabled: true,
          // Not open to the whole VPC: only the tasks' security group (`admit`).
          open: false,
        }),
      );
  }

  /** Lets `peer` (the tasks' security group) reach every interface endpoint over HTTPS. */
  public admit(peer: ec2.IConnectable): void {
    for (const endpoint of this.interfaceEndpoints) endpoint.connections.allowDefaultPortFrom(peer);
  }
}

/** Properties of {@link EgressAllowList}. */
export interface EgressAllowListProps {
  readonly vpc: ec2.IVpc;
  /** Names the tasks may resolve; every other name is answered NXDOMAIN. */
  readonly domains: readonly string[];
}

/**
 * Limits the names the VPC resolves to an allow-list, with a Route 53 Resolver DNS
 * Firewall: one rule allowing the listed domains, one blocking every other name. Together
 * with a security group that only lets HTTPS out, an agent reaches the model and git hosts
 * and nothing it would have to look up by another name. (A connection to a literal IP
 * address needs no lookup: the security group, not this, limits that to port 443.)
 */
export class EgressAllowList extends Construct {
  constructor(scope: Construct, id: string, props: EgressAllowListProps) {
    super(scope, id);
    if (props.domains.length === 0)
      throw new Error('EgressAllowList: give at least one domain the agent may reach');
    const allowed = new route53resolver.CfnFirewallDomainList(this, 'Allowed', {
      domains: [...props.domains],
    });
    const everything = new route53resolver.CfnFirewallDomainList(this, 'Everything', {
      domains: ['*'],
    });
    const rules = new route53resolver.CfnFirewallRuleGroup(this, 'Rules', {
      firewallRules: [
        { firewallDomainListId: allowed.attrId, priority: 100, action: 'ALLOW' },
        {
          firewallDomainListId: everything.attrId,
          priority: 200,
          action: 'BLOCK',
          blockResponse: 'NXDOMAIN',
        },
      ],
    });
    new route53resolver.CfnFirewallRuleGroupAssociation(this, 'Association', {
      firewallRuleGroupId: rules.attrId,
      vpcId: props.vpc.vpcId,
      priority: 101,
      name: 'ralph-agent-egress',
    });
  }
}
