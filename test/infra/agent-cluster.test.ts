import type { CfnElement } from 'aws-cdk-lib';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCluster } from '../../lib/agent-cluster.js';
import { DEFAULT_EGRESS_DOMAINS } from '../../lib/agent-network.js';
import { BUILD_CONTEXT_EXCLUDES, REPO_ROOT } from '../../lib/paths.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { Storage } from '../../lib/storage.js';
import { nagErrors } from '../support/nag.js';

const outdirs: string[] = [];

function newStack(id: string): { app: App; stack: Stack; outdir: string } {
  const outdir = mkdtempSync(join(tmpdir(), 'ralph-infra-agent-'));
  outdirs.push(outdir);
  const app = new App({ context: cdkJsonContext(), outdir });
  return { app, stack: new Stack(app, id), outdir };
}

function logicalId(stack: Stack, construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return stack.resolve(element.logicalId) as string;
}

/** The statements of the policies attached to one role. */
function statementsOf(template: Template, roleId: string): unknown[] {
  const policies = template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
  });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

describe('Class: AgentCluster', () => {
  describe('with defaults', () => {
    let stack: Stack;
    let storage: Storage;
    let agent: AgentCluster;
    let template: Template;
    let outdir: string;

    beforeAll(() => {
      ({ stack, outdir } = newStack('AgentTest'));
      storage = new Storage(stack, 'Storage');
      agent = new AgentCluster(stack, 'Agent', { storage });
      template = Template.fromStack(stack);
    });

    it('defines a Fargate task for Linux on ARM64 with 1 vCPU and 4 GiB', () => {
      // Prepare
      const expected = {
        RequiresCompatibilities: ['FARGATE'],
        NetworkMode: 'awsvpc',
        Cpu: '1024',
        Memory: '4096',
        RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      };

      // Act
      const act = () => template.hasResourceProperties('AWS::ECS::TaskDefinition', expected);

      // Assess
      expect(act).not.toThrow();
    });

    it('runs the agent image asset with awslogs, an init process and the storage names', () => {
      // Prepare
      const tableId = stack.getLogicalId(storage.table.node.defaultChild as CfnElement);
      const bucketId = stack.getLogicalId(storage.bucket.node.defaultChild as CfnElement);

      // Act
      const act = () =>
        template.hasResourceProperties('AWS::ECS::TaskDefinition', {
          ContainerDefinitions: [
            Match.objectLike({
              Name: agent.containerName,
              Essential: true,
              Image: { 'Fn::Sub': Match.stringLikeRegexp('container-assets') },
              LinuxParameters: Match.objectLike({ InitProcessEnabled: true }),
              LogConfiguration: Match.objectLike({ LogDriver: 'awslogs' }),
              Environment: Match.arrayWith([
                { Name: 'TABLE_NAME', Value: { Ref: tableId } },
                { Name: 'BUCKET_NAME', Value: { Ref: bucketId } },
              ]),
            }),
          ],
        });

      // Assess
      expect(act).not.toThrow();
    });

    it('builds the image from agent/Dockerfile for linux/arm64 without local clutter', () => {
      // Prepare
      const manifest = JSON.parse(readFileSync(join(outdir, 'AgentTest.assets.json'), 'utf8')) as {
        dockerImages: Record<
          string,
          { source: { directory: string; dockerFile?: string; platform?: string } }
        >;
      };

      // Act
      const images = Object.values(manifest.dockerImages);
      const context = readdirSync(join(outdir, images[0]?.source.directory ?? 'missing'));

      // Assess
      expect(images).toHaveLength(1);
      expect(images[0]?.source).toMatchObject({
        dockerFile: 'agent/Dockerfile',
        platform: 'linux/arm64',
      });
      expect(context).toContain('agent');
      expect(context).toContain('package-lock.json');
      for (const excluded of ['node_modules', 'cdk.out', '.ralph', '.git', 'coverage']) {
        expect(context).not.toContain(excluded);
      }
    });

    it('keeps .dockerignore and the asset excludes in step', () => {
      // Prepare
      const dockerignore = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8');

      // Act
      const patterns = dockerignore
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'));

      // Assess
      expect(patterns).toEqual([...BUILD_CONTEXT_EXCLUDES]);
      expect(patterns).toEqual(
        expect.arrayContaining(['node_modules', 'cdk.out', '.ralph', '.git', 'coverage']),
      );
    });

    it('creates a cluster with Container Insights', () => {
      // Act
      const act = () =>
        template.hasResourceProperties('AWS::ECS::Cluster', {
          ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }],
        });

      // Assess
      expect(act).not.toThrow();
    });

    it('creates a VPC with public subnets only, no NAT gateway, and flow logs', () => {
      // Act
      const subnets = template.findResources('AWS::EC2::Subnet');

      // Assess
      template.resourceCountIs('AWS::EC2::NatGateway', 0);
      template.resourceCountIs('AWS::EC2::FlowLog', 1);
      expect(Object.keys(subnets)).toHaveLength(2);
      for (const subnet of Object.values(subnets)) {
        expect(subnet.Properties.MapPublicIpOnLaunch).toBe(true);
      }
      expect(agent.assignPublicIp).toBe(true);
      expect(agent.subnets.subnetIds).toHaveLength(2);
    });

    it('gives tasks a security group without inbound rules', () => {
      // Act
      const groups = template.findResources('AWS::EC2::SecurityGroup');

      // Assess
      expect(Object.keys(groups)).toHaveLength(1);
      for (const group of Object.values(groups)) {
        expect(group.Properties.SecurityGroupIngress).toBeUndefined();
        expect(group.Properties.SecurityGroupEgress).toHaveLength(1);
      }
      template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
    });

    it('lets the task role do nothing but assume the runner role', () => {
      // Prepare
      const taskRoleId = logicalId(stack, agent.taskDefinition.taskRole);
      const runnerRoleId = logicalId(stack, agent.runnerRole);

      // Act
      const statements = statementsOf(template, taskRoleId);

      // Assess
      expect(statements).toEqual([
        {
          Effect: 'Allow',
          Action: 'sts:AssumeRole',
          Resource: { 'Fn::GetAtt': [runnerRoleId, 'Arn'] },
        },
      ]);
      template.hasResourceProperties('AWS::IAM::Role', {
        AssumeRolePolicyDocument: {
          Statement: [
            {
              Effect: 'Allow',
              Action: 'sts:AssumeRole',
              Principal: { AWS: { 'Fn::GetAtt': [taskRoleId, 'Arn'] } },
            },
          ],
        },
      });
    });

    it("gives the runner role run items and iteration artefacts only, never the judge's verdicts or a delete", () => {
      // Prepare
      const table = { 'Fn::GetAtt': [logicalId(stack, storage.table), 'Arn'] };
      const bucket = { 'Fn::GetAtt': [logicalId(stack, storage.bucket), 'Arn'] };
      const objects = (pattern: string) => ({ 'Fn::Join': ['', [bucket, `/${pattern}`]] });

      // Act
      const statements = statementsOf(template, logicalId(stack, agent.runnerRole));

      // Assess
      expect(statements).toEqual([
        {
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
          Resource: table,
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RUN#*'] } },
        },
        {
          Effect: 'Allow',
          Action: ['s3:GetObject', 's3:PutObject'],
          Resource: [objects('runs/*/iterations/*'), objects('runs/*/progress-archive/*')],
        },
        {
          Effect: 'Allow',
          Action: 's3:ListBucket',
          Resource: bucket,
          Condition: { StringLike: { 's3:prefix': ['runs/*'] } },
        },
        {
          Effect: 'Deny',
          Action: 's3:PutObject',
          Resource: objects('runs/*/iterations/*/expensive/*'),
        },
      ]);
      const container = template.findResources('AWS::ECS::TaskDefinition');
      const environment = Object.values(container)[0]?.Properties.ContainerDefinitions[0]
        .Environment as { Name: string; Value: unknown }[];
      expect(environment).toContainEqual({
        Name: 'RALPH_RUNNER_ROLE_ARN',
        Value: { 'Fn::GetAtt': [logicalId(stack, agent.runnerRole), 'Arn'] },
      });
    });

    it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
      // Act
      const errors = nagErrors(stack);

      // Assess
      expect(errors).toEqual([]);
    });
  });

  describe('in private subnets with egress limited to an allow-list', () => {
    let stack: Stack;
    let agent: AgentCluster;
    let template: Template;

    beforeAll(() => {
      ({ stack } = newStack('AgentPrivateTest'));
      const storage = new Storage(stack, 'Storage');
      agent = new AgentCluster(stack, 'Agent', {
        storage,
        subnets: 'private',
        bedrockAgent: true,
        egressDomains: DEFAULT_EGRESS_DOMAINS,
        image: ecs.ContainerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
      });
      template = Template.fromStack(stack);
    });

    it('places tasks in private subnets behind one NAT gateway, without public IPs', () => {
      // Assess
      expect(agent.assignPublicIp).toBe(false);
      expect(agent.subnets.subnets).toEqual(agent.vpc.privateSubnets);
      template.resourceCountIs('AWS::EC2::NatGateway', 1);
    });

    it('reaches the AWS services a task uses through endpoints', () => {
      // Act
      const endpoints = Object.values(template.findResources('AWS::EC2::VPCEndpoint')).map(
        (endpoint) => JSON.stringify(endpoint.Properties.ServiceName),
      );

      // Assess
      for (const service of [
        'ecr.api',
        'ecr.dkr',
        'logs',
        'sts',
        'secretsmanager',
        'bedrock-runtime',
        's3',
        'dynamodb',
      ])
        expect(
          endpoints.some((name) => name.includes(`.${service}`)),
          service,
        ).toBe(true);
    });

    it('lets only HTTPS out, and resolves only the allowed domains', () => {
      // Act
      const groups = Object.values(template.findResources('AWS::EC2::SecurityGroup')).filter(
        (group) => String(group.Properties.GroupDescription).startsWith('Ralph agent tasks'),
      );
      const lists = Object.values(
        template.findResources('AWS::Route53Resolver::FirewallDomainList'),
      );

      // Assess
      expect(groups.map((group) => group.Properties.SecurityGroupEgress)).toEqual([
        [
          {
            CidrIp: '0.0.0.0/0',
            Description: 'HTTPS',
            FromPort: 443,
            IpProtocol: 'tcp',
            ToPort: 443,
          },
        ],
      ]);
      expect(lists.map((list) => list.Properties.Domains)).toEqual([
        [...DEFAULT_EGRESS_DOMAINS],
        ['*'],
      ]);
      template.hasResourceProperties('AWS::Route53Resolver::FirewallRuleGroup', {
        FirewallRules: [
          Match.objectLike({ Action: 'ALLOW', Priority: 100 }),
          Match.objectLike({ Action: 'BLOCK', BlockResponse: 'NXDOMAIN', Priority: 200 }),
        ],
      });
      template.hasResourceProperties('AWS::Route53Resolver::FirewallRuleGroupAssociation', {
        VpcId: { Ref: logicalId(stack, agent.vpc) },
      });
    });

    it('gives the agent a Bedrock session that may only invoke Anthropic models', () => {
      // Prepare
      const modelRoleId = logicalId(stack, agent.agentModelRole!);
      const taskRoleId = logicalId(stack, agent.taskDefinition.taskRole);

      // Act
      const modelStatements = statementsOf(template, modelRoleId);
      const taskStatements = statementsOf(template, taskRoleId);

      // Assess
      expect(modelStatements).toEqual([
        {
          Effect: 'Allow',
          Action: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
          // CDK orders the ARNs: the inference profiles (Fn::Join on arn:, partition...) sort first.
          Resource: expect.arrayContaining([
            {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':bedrock:*::foundation-model/anthropic.*'],
              ],
            },
            expect.objectContaining({
              'Fn::Join': ['', expect.arrayContaining([':inference-profile/*'])],
            }),
          ]),
        },
      ]);
      // The task role assumes the runner role and this one, and does nothing else.
      expect(taskStatements).toEqual([
        {
          Effect: 'Allow',
          Action: 'sts:AssumeRole',
          Resource: expect.arrayContaining([
            { 'Fn::GetAtt': [logicalId(stack, agent.runnerRole), 'Arn'] },
            { 'Fn::GetAtt': [modelRoleId, 'Arn'] },
          ]),
        },
      ]);
      expect((taskStatements[0] as { Resource: unknown[] }).Resource).toHaveLength(2);
      template.hasResourceProperties('AWS::ECS::TaskDefinition', {
        ContainerDefinitions: [
          Match.objectLike({
            Environment: Match.arrayWith([
              { Name: 'RALPH_AGENT_MODEL_ROLE_ARN', Value: { 'Fn::GetAtt': [modelRoleId, 'Arn'] } },
            ]),
          }),
        ],
      });
    });

    it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
      // Assess
      expect(nagErrors(stack)).toEqual([]);
    });
  });

  describe('with secrets and an existing VPC', () => {
    it('injects the secrets and places tasks in private subnets without public IPs', () => {
      // Prepare
      const { stack } = newStack('AgentVpcTest');
      const storage = new Storage(stack, 'Storage');
      const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 1 });
      vpc.addFlowLog('FlowLog');
      const agent = new AgentCluster(stack, 'Agent', {
        storage,
        vpc,
        image: ecs.ContainerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
        anthropicApiKeySecret: secretsmanager.Secret.fromSecretNameV2(stack, 'Key', 'ralph/key'),
        gitTokenSecret: secretsmanager.Secret.fromSecretNameV2(stack, 'Git', 'ralph/git'),
      });

      // Act
      const template = Template.fromStack(stack);

      // Assess
      expect(agent.assignPublicIp).toBe(false);
      expect(agent.subnets.subnets).toEqual(vpc.privateSubnets);
      template.hasResourceProperties('AWS::ECS::TaskDefinition', {
        ContainerDefinitions: [
          Match.objectLike({
            Secrets: [
              Match.objectLike({ Name: 'ANTHROPIC_API_KEY' }),
              Match.objectLike({ Name: 'GIT_TOKEN' }),
            ],
          }),
        ],
      });
      expect(nagErrors(stack)).toEqual([]);
    });

    it('rejects subnets without a VPC', () => {
      // Prepare
      const { stack } = newStack('AgentClashTest');
      const storage = new Storage(stack, 'Storage');

      // Act
      const act = () =>
        new AgentCluster(stack, 'Agent', {
          storage,
          vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
        });

      // Assess
      expect(act).toThrow(/vpcSubnets/);
    });
  });
});
