import type { CfnElement } from 'aws-cdk-lib';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_DEFAULTS } from '../../lib/function-defaults.js';
import { LOOP_STEPS, LoopFunctions } from '../../lib/functions.js';
import { HANDLERS_DIR } from '../../lib/paths.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { Storage } from '../../lib/storage.js';
import { nagErrors } from '../support/nag.js';

describe('Class: LoopFunctions', () => {
  let outdir: string;
  let stack: Stack;
  let storage: Storage;
  let functions: LoopFunctions;
  let template: Template;

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'ralph-infra-functions-'));
    // Bundling is skipped here (the full-stack test bundles for real): these assertions
    // are about configuration, and esbuild would cost seconds per function.
    const app = new App({
      context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] },
      outdir,
    });
    stack = new Stack(app, 'FunctionsTest');
    storage = new Storage(stack, 'Storage');
    functions = new LoopFunctions(stack, 'Functions', { storage });
    template = Template.fromStack(stack);
  });

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('builds one function per loop step from an existing handler module', () => {
    // Prepare
    const handlerFiles = [
      'init-run.ts',
      'collect-artefacts.ts',
      'judge-artefact.ts',
      'evaluate-cheap.ts',
      'analyze-gap.ts',
      'advance.ts',
      'pause-run.ts',
      'finalize-run.ts',
    ];

    // Act
    const fns = template.findResources('AWS::Lambda::Function');

    // Assess
    expect(Object.keys(fns)).toHaveLength(LOOP_STEPS.length);
    expect(functions.all).toHaveLength(LOOP_STEPS.length);
    expect(handlerFiles).toHaveLength(LOOP_STEPS.length);
    for (const file of handlerFiles) expect(existsSync(join(HANDLERS_DIR, file))).toBe(true);
  });

  it('runs every function on Node.js 22, ARM64, with active tracing and an ESM handler', () => {
    // Prepare
    const expected = {
      Properties: Match.objectLike({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        MemorySize: FUNCTION_DEFAULTS.memorySize,
      }),
    };

    // Act
    const matching = template.findResources('AWS::Lambda::Function', expected);

    // Assess
    expect(Object.keys(matching)).toHaveLength(LOOP_STEPS.length);
  });

  it('passes table, bucket and Powertools settings through the environment', () => {
    // Prepare
    const tableId = stack.getLogicalId(storage.table.node.defaultChild as CfnElement);
    const bucketId = stack.getLogicalId(storage.bucket.node.defaultChild as CfnElement);

    // Act
    const matching = template.findResources('AWS::Lambda::Function', {
      Properties: {
        Environment: {
          Variables: Match.objectLike({
            TABLE_NAME: { Ref: tableId },
            BUCKET_NAME: { Ref: bucketId },
            POWERTOOLS_SERVICE_NAME: 'ralph-cloud',
            POWERTOOLS_LOG_LEVEL: 'INFO',
          }),
        },
      },
    });

    // Assess
    expect(Object.keys(matching)).toHaveLength(LOOP_STEPS.length);
  });

  it('gives the judge, the gap analysis, the cheap mode and finalize-run their own timeouts', () => {
    // Act
    const timeouts = functions.all.map(
      (fn) => template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as CfnElement)],
    );

    // Assess
    // initRun, collect, judge (3 tries × 120 s), cheap, analyse (re-runs, proposals),
    // advance, pause, finalize.
    expect(timeouts.map((r) => r.Properties.Timeout)).toEqual([60, 60, 480, 60, 900, 60, 60, 300]);
  });

  it('logs each function to its own log group with a retention', () => {
    // Act
    const groups = template.findResources('AWS::Logs::LogGroup', {
      Properties: { RetentionInDays: 30 },
      DeletionPolicy: 'Retain',
    });

    // Assess
    expect(Object.keys(groups)).toHaveLength(LOOP_STEPS.length);
    template.hasResourceProperties('AWS::Lambda::Function', {
      LoggingConfig: { LogGroup: { Ref: Match.stringLikeRegexp('InitRunLogGroup') } },
    });
  });

  it('lets every function read and write the table and the bucket', () => {
    // Prepare
    const tableId = stack.getLogicalId(storage.table.node.defaultChild as CfnElement);

    // Act
    const policies = template.findResources('AWS::IAM::Policy', {
      Properties: {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Action: Match.arrayWith(['dynamodb:PutItem', 'dynamodb:Query']),
              Resource: Match.arrayWith([{ 'Fn::GetAtt': [tableId, 'Arn'] }]),
            }),
            Match.objectLike({
              Action: Match.arrayWith(['s3:GetObject*', 's3:PutObject']),
            }),
          ]),
        },
      },
    });

    // Assess
    expect(Object.keys(policies)).toHaveLength(LOOP_STEPS.length);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    // Act
    const errors = nagErrors(stack);

    // Assess
    expect(errors).toEqual([]);
  });
});
