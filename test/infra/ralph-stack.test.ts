import type { CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_FUNCTION_GROUPS } from '../../lambdas/api/route-table.js';
import { LOOP_STEPS, pascalCase } from '../../lib/functions.js';
import { DEFAULT_EGRESS_DOMAINS } from '../../lib/agent-network.js';
import { createRalphApp } from '../../lib/ralph-app.js';
import type { RalphStack } from '../../lib/ralph-stack.js';
import type { IConstruct } from 'constructs';
import { nagErrors } from '../support/nag.js';

describe('Class: RalphStack', () => {
  let outdir: string;
  let stack: RalphStack;
  let template: Template;
  const logicalId = (construct: IConstruct): string =>
    stack.getLogicalId(construct.node.defaultChild as CfnElement);

  beforeAll(() => {
    // Built once, as `cdk synth` builds it: cdk.json context, cdk-nag registered as a
    // validation plugin (synthesis throws on an unacknowledged error), real esbuild bundling.
    outdir = mkdtempSync(join(tmpdir(), 'ralph-infra-stack-'));
    ({ stack } = createRalphApp({ outdir }));
    template = Template.fromStack(stack);
  }, 120_000);

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('runs every loop, API, watch and intake function on Node.js 22 and ARM64', () => {
    // Prepare
    const { intake } = stack;
    const loopFunctionIds = [
      ...stack.functions.all,
      stack.executionWatch.function,
      intake.hooksFunction,
      intake.alarmFunction,
      intake.closeBatchFunction,
    ].map(logicalId);
    const apiFunctionIds = Object.values(stack.api.functions).map(logicalId);

    // Act
    const fns = template.findResources('AWS::Lambda::Function');
    // CDK's own custom-resource providers (the default security group lockdown) are not ours.
    const ours = Object.entries(fns).filter(([id]) => !id.includes('CustomResourceProvider'));

    // Assess
    expect(ours.map(([id]) => id).sort()).toEqual([...loopFunctionIds, ...apiFunctionIds].sort());
    for (const [, fn] of ours) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    }
  });

  it('bundles each handler as one ESM file that can still require CommonJS dependencies', () => {
    // Prepare
    const manifest = JSON.parse(
      readFileSync(join(outdir, `${stack.artifactId}.assets.json`), 'utf8'),
    ) as { files: Record<string, { displayName?: string; source: { path: string } }> };

    // Act
    const bundles = Object.values(manifest.files).filter((file) =>
      /^(Functions|Api)\/\w+\/Code$/.test(file.displayName ?? ''),
    );

    // Assess
    expect(bundles).toHaveLength(LOOP_STEPS.length + API_FUNCTION_GROUPS.length);
    for (const bundle of bundles) {
      const code = readFileSync(join(outdir, bundle.source.path, 'index.mjs'), 'utf8');
      expect(code.startsWith('import { createRequire }')).toBe(true);
      // No source map shipped or read at cold start; names kept for stack traces.
      expect(code).not.toContain('sourceMappingURL');
      expect(existsSync(join(outdir, bundle.source.path, 'index.mjs.map'))).toBe(false);
      // The prompt templates the run-store ports load, beside the bundle.
      expect(existsSync(join(outdir, bundle.source.path, 'templates'))).toBe(true);
    }
  });

  it('wires the state machine to its own functions, cluster and task definition', () => {
    // Prepare
    const { agentCluster } = stack;
    const expected = {
      ...Object.fromEntries(
        LOOP_STEPS.map((step) => [
          `${pascalCase(step)}FunctionArn`,
          { 'Fn::GetAtt': [logicalId(stack.functions[step]), 'Arn'] },
        ]),
      ),
      AgentClusterArn: { 'Fn::GetAtt': [logicalId(agentCluster.cluster), 'Arn'] },
      AgentTaskDefinitionArn: { Ref: logicalId(agentCluster.taskDefinition) },
      AgentSecurityGroupId: { 'Fn::GetAtt': [logicalId(agentCluster.securityGroup), 'GroupId'] },
      AgentSubnetIds: { 'Fn::Join': [',', Match.anyValue()] },
      AgentAssignPublicIp: 'ENABLED',
      AgentContainerName: 'agent',
    };

    // Act
    const act = () =>
      template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
        DefinitionSubstitutions: expected,
        LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: true }),
        TracingConfiguration: { Enabled: true },
      });

    // Assess
    expect(act).not.toThrow();
  });

  it('runs the agent as a Fargate ARM64 task from an image asset', () => {
    // Act
    const act = () =>
      template.hasResourceProperties('AWS::ECS::TaskDefinition', {
        RequiresCompatibilities: ['FARGATE'],
        RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
        ContainerDefinitions: [
          Match.objectLike({ Image: { 'Fn::Sub': Match.stringLikeRegexp('container-assets') } }),
        ],
      });

    // Assess
    expect(act).not.toThrow();
  });

  it('keeps table and bucket secure', () => {
    // Act
    const act = () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      });
      template.hasResourceProperties('AWS::S3::Bucket', {
        BucketEncryption: Match.anyValue(),
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      });
    };

    // Assess
    expect(act).not.toThrow();
  });

  it('alarms on the run loop', () => {
    // Act
    const alarms = template.findResources('AWS::CloudWatch::Alarm', {
      Properties: { Namespace: 'AWS/States' },
    });

    // Assess
    expect(Object.keys(alarms)).toHaveLength(4);
  });

  it("alarms on the loop's metrics to the alarm topic, without a cost alarm when no budget is set", () => {
    // Act
    const alarms = Object.values(
      template.findResources('AWS::CloudWatch::Alarm', { Properties: { Namespace: 'RalphCloud' } }),
    );

    // Assess
    expect(alarms.map((alarm) => alarm.Properties.MetricName)).toEqual([
      'RunsAborted',
      'JudgeUnreliable',
      'Divergences',
    ]);
    for (const alarm of alarms)
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: logicalId(stack.alarms.topic) }]);
  });

  it('outputs the alarm topic and the dashboard', () => {
    // Act
    const outputs = template.findOutputs('*');

    // Assess
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    expect(outputs).toMatchObject({
      AlarmTopicArn: { Value: { Ref: logicalId(stack.alarms.topic) } },
      DashboardName: { Value: { Ref: logicalId(stack.dashboard.dashboard) } },
    });
    const url = JSON.stringify(outputs.DashboardUrl?.Value);
    expect(url).toContain('#dashboards:name=');
    expect(url).toContain(JSON.stringify({ Ref: logicalId(stack.dashboard.dashboard) }));
  });

  it('outputs the API URL, the table name, the bucket name and the state machine ARN', () => {
    // Act
    const outputs = template.findOutputs('*');

    // Assess
    expect(outputs).toMatchObject({
      ApiUrl: { Value: stack.resolve(stack.api.url) },
      TableName: { Value: { Ref: logicalId(stack.storage.table) } },
      BucketName: { Value: { Ref: logicalId(stack.storage.bucket) } },
      StateMachineArn: { Value: { Ref: logicalId(stack.orchestration.stateMachine) } },
    });
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    // Act
    const errors = nagErrors(stack);

    // Assess
    expect(errors).toEqual([]);
  });
});

describe('Class: RalphStack with the model on Amazon Bedrock, agents in private subnets with limited egress', () => {
  let stack: RalphStack;
  let template: Template;
  let outdir: string;

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'ralph-bedrock-'));
    ({ stack } = createRalphApp({
      outdir,
      context: {
        'ralph:modelProvider': 'bedrock',
        'ralph:agentSubnets': 'private',
        'ralph:egressDomains': 'default',
        'ralph:budgetAlarmUsd': '12.5',
      },
    }));
    template = Template.fromStack(stack);
  });
  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('lets the judge, the gap analysis and the agent invoke Anthropic models on Bedrock, and nothing else', () => {
    // Act
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy).includes('bedrock:InvokeModel'),
    );
    const judge =
      template.toJSON().Resources[
        stack.getLogicalId(stack.functions.judgeArtefact.node.defaultChild as CfnElement)
      ];

    // Assess
    expect(policies).toHaveLength(3);
    expect(stack.agentCluster.agentModelRole).toBeDefined();
    expect(judge.Properties.Environment.Variables).toMatchObject({ MODEL_PROVIDER: 'bedrock' });
    expect(judge.Properties.Environment.Variables.ANTHROPIC_API_KEY_SECRET_ARN).toBeUndefined();
  });

  it('runs the agents in private subnets, resolving only the default egress domains', () => {
    // Assess
    expect(stack.agentCluster.assignPublicIp).toBe(false);
    template.resourceCountIs('AWS::EC2::NatGateway', 1);
    template.hasResourceProperties('AWS::Route53Resolver::FirewallDomainList', {
      Domains: [...DEFAULT_EGRESS_DOMAINS],
    });
  });

  it('alarms when a run costs more than the budget given in the context', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'RalphCloud',
      MetricName: 'RunCost',
      Statistic: 'Maximum',
      Threshold: 12.5,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    expect(nagErrors(stack)).toEqual([]);
  });
});

describe('Function: createRalphApp', () => {
  it.each(['lots', '0', '-2', 'Infinity'])(
    'refuses a budget of %j before building anything',
    (budget) => {
      // Act
      const act = () => createRalphApp({ context: { 'ralph:budgetAlarmUsd': budget }, nag: false });

      // Assess
      expect(act).toThrow(/context ralph:budgetAlarmUsd must be a positive number of US dollars/);
    },
  );
});
