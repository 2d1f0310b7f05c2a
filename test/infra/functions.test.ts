import type { CfnElement } from 'aws-cdk-lib';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { learningKeys } from '../../lambdas/adapters/dynamodb/learning-items.js';
import { runStoreKeys } from '../../lambdas/adapters/dynamodb/run-items.js';
import { patternSetKeys } from '../../lambdas/adapters/pattern-sets/pattern-set-keys.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { PROJECT_PARTITIONS, REGISTRY_PARTITIONS, RUN_PARTITIONS } from '../../lib/data-access.js';
import { FUNCTION_DEFAULTS } from '../../lib/function-defaults.js';
import { LOOP_STEPS, LoopFunctions, type LoopStep } from '../../lib/functions.js';
import { HANDLERS_DIR } from '../../lib/paths.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { Storage } from '../../lib/storage.js';
import { globMatches, logicalIdOf, permissionsOf } from '../support/iam-permissions.js';
import { nagErrors } from '../support/nag.js';

/** Table actions on the partitions matching `partitions` (`dynamodb:LeadingKeys`). */
const items = (partitions: string, ...actions: string[]) =>
  actions.map(
    (action) =>
      `dynamodb:${action} table if ForAllValues:StringLike dynamodb:LeadingKeys ${partitions}`,
  );
const gets = (...keys: string[]) => keys.map((key) => `s3:GetObject bucket/${key}`);
const puts = (...keys: string[]) => keys.map((key) => `s3:PutObject bucket/${key}`);
/** ListBucket with the keys that may be missing as `s3:prefix`: their absence is a 404. */
const lists = (...keys: string[]) => [
  `s3:ListBucket bucket if StringLike s3:prefix ${[...keys].sort().join(',')}`,
];

const ITERATION = 'runs/*/iterations/*';
const PATTERN_SETS = 'projects/*/patterns/v*.json';
const REGISTRY_BODIES = 'registry/*/patterns/*/v*.json';

/** What a run's learning snapshot is taken from: rules, registry patterns, large bodies. */
const LEARNING_READS = [
  ...items('PROJECT#*', 'GetItem', 'Query'),
  ...items('REGISTRY#*', 'GetItem', 'Query'),
  ...gets(REGISTRY_BODIES),
];

/** What learning reads and writes: rules, registry patterns and the bodies of large ones. */
const LEARNING = [
  ...items('PROJECT#*', 'GetItem', 'Query', 'PutItem'),
  ...items('REGISTRY#*', 'GetItem', 'Query', 'PutItem'),
  ...gets(REGISTRY_BODIES),
  ...puts(REGISTRY_BODIES),
];

/** A project's spend per day: read against the daily budget, added to when an iteration cost. */
const SPEND = items('PROJECT#*', 'GetItem', 'UpdateItem');

/**
 * What each function's code calls (lib/loop-access.ts says where), written out here so
 * that a change of the grants is a change of this table too.
 */
const EXPECTED: Readonly<Record<LoopStep, readonly string[]>> = {
  initRun: [
    ...items('RUN#*', 'BatchWriteItem', 'GetItem', 'PutItem', 'Query'),
    ...LEARNING_READS,
    // GetItem of PROJECT#* is among the learning reads already.
    ...items('PROJECT#*', 'UpdateItem'),
    ...gets(
      'runs/*/request.json',
      'runs/*/manifest.json',
      `${ITERATION}/result.json`,
      `${ITERATION}/plan.json`,
    ),
    ...gets('runs/*/learning-snapshot.json'),
    ...puts('runs/*/manifest.json', `${ITERATION}/plan.json`, 'runs/*/learning-snapshot.json'),
    ...lists('runs/*/manifest.json', `${ITERATION}/result.json`, 'runs/*/learning-snapshot.json'),
  ],
  openFixPullRequest: [
    ...items('RUN#*', 'GetItem', 'PutItem'),
    ...items('GROUP#*', 'GetItem', 'PutItem'),
    ...gets(`${ITERATION}/result.json`, 'runs/*/errors/*.json', `${ITERATION}/pull-request.json`),
    ...puts(`${ITERATION}/pull-request.json`),
    ...lists(`${ITERATION}/result.json`, 'runs/*/errors/*.json'),
  ],
  collectArtefacts: [
    ...items('RUN#*', 'GetItem', 'Query'),
    ...gets(
      `${ITERATION}/result.json`,
      `${ITERATION}/diff.patch`,
      `${ITERATION}/artefacts/change.json`,
    ),
    ...puts(`${ITERATION}/artefacts/change.json`),
    ...lists(`${ITERATION}/result.json`),
  ],
  judgeArtefact: [
    ...items('RUN#*', 'GetItem'),
    ...gets(
      `${ITERATION}/expensive/*.json`,
      `${ITERATION}/artefacts/*.json`,
      `${ITERATION}/expensive/*.raw-*.txt`,
    ),
    ...puts(`${ITERATION}/expensive/*.json`, `${ITERATION}/expensive/*.raw-*.txt`),
    ...lists(`${ITERATION}/expensive/*.json`),
  ],
  evaluateCheap: [
    ...items('RUN#*', 'GetItem'),
    ...items('PROJECT#*', 'GetItem', 'Query', 'PutItem'),
    ...gets(`${ITERATION}/cheap.json`, `${ITERATION}/artefacts/*.json`, PATTERN_SETS),
    ...puts(`${ITERATION}/cheap.json`, PATTERN_SETS),
    ...lists(`${ITERATION}/cheap.json`, PATTERN_SETS),
  ],
  analyzeGap: [
    ...items('RUN#*', 'GetItem', 'PutItem'),
    ...items('PROJECT#*', 'GetItem', 'Query', 'PutItem'),
    ...gets(
      `${ITERATION}/artefacts/*.json`,
      `${ITERATION}/cheap.json`,
      `${ITERATION}/expensive/*.json`,
      `${ITERATION}/gap.json`,
      `${ITERATION}/result.json`,
      PATTERN_SETS,
      `${ITERATION}/log.json`,
      'runs/*/convergence-proof.json',
    ),
    ...puts(
      `${ITERATION}/gap.json`,
      `${ITERATION}/log.json`,
      'runs/*/convergence-proof.json',
      PATTERN_SETS,
    ),
    ...lists(`${ITERATION}/expensive/*.json`, `${ITERATION}/result.json`, PATTERN_SETS),
  ],
  advance: [
    ...items('RUN#*', 'GetItem', 'Query', 'PutItem'),
    ...SPEND,
    ...gets(`${ITERATION}/result.json`, `${ITERATION}/plan.json`, 'runs/*/learning-snapshot.json'),
    ...puts(`${ITERATION}/plan.json`),
    ...lists(`${ITERATION}/result.json`, 'runs/*/learning-snapshot.json'),
  ],
  pauseRun: [...items('RUN#*', 'GetItem', 'PutItem')],
  finalizeRun: [
    ...items('RUN#*', 'GetItem', 'Query', 'PutItem'),
    ...LEARNING,
    ...gets(
      'runs/*/summary.json',
      'runs/*/investigation-report.json',
      `${ITERATION}/result.json`,
      `${ITERATION}/pull-request.json`,
      `${ITERATION}/diff.patch`,
    ),
    ...gets('runs/*/learning-report.json'),
    ...puts(
      'runs/*/summary.json',
      'runs/*/investigation-report.json',
      'runs/*/learning-report.json',
    ),
    ...lists(
      'runs/*/summary.json',
      'runs/*/investigation-report.json',
      `${ITERATION}/result.json`,
      `${ITERATION}/pull-request.json`,
      `${ITERATION}/diff.patch`,
      'runs/*/learning-report.json',
    ),
  ],
};

const RUN = 'r20260101-000000-abcdef';
/** Large registry bodies of the organisation's and of a project's registry. */
const REGISTRY_KEYS = [
  artefactKeys.registryBody('org', 'pat-error-null-check', 3, '0123456789abcdef'),
  artefactKeys.registryBody('project:acme', 'tmpl-async-handler', 1, 'fedcba9876543210'),
];
const at = (iteration: number, name: Parameters<typeof artefactKeys.iteration>[2]) =>
  artefactKeys.iteration(RUN, iteration, name);

/** Objects each function reads and writes, named by the key builders the code uses. */
const KEYS_USED: Readonly<Record<LoopStep, { reads?: string[]; writes?: string[] }>> = {
  initRun: {
    reads: [artefactKeys.request(RUN), at(3, 'result.json'), ...REGISTRY_KEYS],
    writes: [
      artefactKeys.manifest(RUN),
      at(4, 'plan.json'),
      artefactKeys.runArtefact(RUN, 'learning-snapshot.json'),
    ],
  },
  openFixPullRequest: {
    reads: [at(3, 'result.json'), artefactKeys.errorGroup(RUN, 'ERR-ab12cd34ef56')],
    writes: [at(3, 'pull-request.json')],
  },
  collectArtefacts: {
    reads: [at(3, 'result.json'), at(3, 'diff.patch')],
    writes: [artefactKeys.evaluationArtefact(RUN, 3, 'change')],
  },
  judgeArtefact: {
    reads: [artefactKeys.evaluationArtefact(RUN, 3, 'prd-review')],
    writes: [
      artefactKeys.judgeResult(RUN, 3, 'prd-review'),
      artefactKeys.judgeRawAnswer(RUN, 3, 'prd-review', 1),
    ],
  },
  evaluateCheap: {
    reads: [artefactKeys.evaluationArtefact(RUN, 3, 'change'), artefactKeys.patternSet('acme', 2)],
    writes: [at(3, 'cheap.json'), artefactKeys.patternSet('acme', 1)],
  },
  analyzeGap: {
    reads: [
      artefactKeys.evaluationArtefact(RUN, 3, 'change'),
      at(3, 'cheap.json'),
      artefactKeys.judgeResult(RUN, 3, 'change'),
      at(2, 'gap.json'),
      at(3, 'result.json'),
      artefactKeys.patternSet('acme', 2),
    ],
    writes: [
      at(3, 'gap.json'),
      at(3, 'log.json'),
      artefactKeys.convergenceProof(RUN),
      artefactKeys.patternSet('acme', 3),
    ],
  },
  advance: {
    reads: [at(3, 'result.json'), artefactKeys.runArtefact(RUN, 'learning-snapshot.json')],
    writes: [at(4, 'plan.json')],
  },
  pauseRun: {},
  finalizeRun: {
    reads: [at(3, 'result.json'), at(3, 'pull-request.json'), at(3, 'diff.patch')],
    writes: [
      artefactKeys.summary(RUN),
      artefactKeys.runArtefact(RUN, 'investigation-report.json'),
      artefactKeys.runArtefact(RUN, 'learning-report.json'),
      ...REGISTRY_KEYS,
    ],
  },
};

/** What no loop function may do: delete, scan, stream, abort uploads, lock objects. */
const FORBIDDEN_ACTIONS =
  /\*|:Delete|^dynamodb:(Scan|DescribeStream|GetRecords|GetShardIterator|ListStreams)$|^s3:(Abort|PutObjectRetention|PutObjectLegalHold)/;

/** The names permission lines give the storage's resources. */
function names(stack: Stack, storage: Storage): Record<string, string> {
  return {
    [logicalIdOf(stack, storage.table)]: 'table',
    [logicalIdOf(stack, storage.bucket)]: 'bucket',
    ...(storage.encryptionKey ? { [logicalIdOf(stack, storage.encryptionKey)]: 'key' } : {}),
  };
}

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
      'open-fix-pull-request.ts',
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
    // initRun, open fix PR (GitHub's retries), collect, judge (3 tries × 120 s), cheap,
    // analyse (re-runs, proposals), advance, pause, finalize.
    expect(timeouts.map((r) => r.Properties.Timeout)).toEqual([
      60, 180, 60, 480, 60, 900, 60, 60, 300,
    ]);
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

  it('lets each function write to its own log group only, with no managed policy', () => {
    // Act
    const roles = Object.values(template.findResources('AWS::IAM::Role'));
    const logStatements = Object.values(template.findResources('AWS::IAM::Policy'))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement) => JSON.stringify(statement.Action).includes('logs:'));

    // Assess: not AWSLambdaBasicExecutionRole, which may write to every log group.
    expect(roles.map((role) => role.Properties.ManagedPolicyArns ?? [])).toEqual(
      roles.map(() => []),
    );
    const groups = logStatements.map((statement) => {
      expect(statement.Action).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      return (statement.Resource as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    });
    expect(new Set(groups).size).toBe(LOOP_STEPS.length);
    for (const group of groups) expect(group).toMatch(/LogGroup[0-9A-F]{8}$/);
  });

  it.each(LOOP_STEPS)('grants %s exactly the data actions its code calls', (step) => {
    // Act
    const granted = permissionsOf(template, stack, functions[step], names(stack, storage));

    // Assess
    expect(granted).toEqual([...EXPECTED[step]].sort());
  });

  it('grants no loop function a delete, a scan, a wildcard action, object locks or streams', () => {
    // Act
    const actions = LOOP_STEPS.flatMap((step) =>
      permissionsOf(template, stack, functions[step], names(stack, storage)).map(
        (permission) => permission.split(' ')[0]!,
      ),
    );

    // Assess
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((action) => FORBIDDEN_ACTIONS.test(action))).toEqual([]);
  });

  it('keeps every table grant to run, project, registry or (the pull-request step) error-group partitions, and off the listing index', () => {
    // Act
    const onTable = LOOP_STEPS.flatMap((step) =>
      permissionsOf(template, stack, functions[step], names(stack, storage)).filter((permission) =>
        permission.startsWith('dynamodb:'),
      ),
    );

    // Assess
    expect(onTable.length).toBeGreaterThan(0);
    for (const permission of onTable)
      expect(permission).toMatch(
        /^dynamodb:\w+ table if ForAllValues:StringLike dynamodb:LeadingKeys (RUN|PROJECT|REGISTRY|GROUP)#\*$/,
      );
  });

  it('names the run, project and registry partitions as the stores key them', () => {
    // Act
    const run = runStoreKeys.runPk('r20260101-000000-abcdef');
    const project = patternSetKeys.projectPk('acme');
    const rules = learningKeys.projectPk('acme');
    const registries = [learningKeys.registryPk('org'), learningKeys.registryPk('project:acme')];

    // Assess
    expect(run.startsWith(RUN_PARTITIONS.replace('*', ''))).toBe(true);
    expect(project.startsWith(PROJECT_PARTITIONS.replace('*', ''))).toBe(true);
    expect(rules.startsWith(PROJECT_PARTITIONS.replace('*', ''))).toBe(true);
    for (const registry of registries)
      expect(registry.startsWith(REGISTRY_PARTITIONS.replace('*', ''))).toBe(true);
  });

  it.each(LOOP_STEPS)('grants %s the objects as artefactKeys names them', (step) => {
    // Prepare
    const granted = permissionsOf(template, stack, functions[step], names(stack, storage));
    const allows = (action: string, key: string) =>
      granted.some((permission) => {
        const [grantedAction, resource] = permission.split(' ');
        return grantedAction === action && globMatches(resource!.replace(/^bucket\//, ''), key);
      });

    // Act
    const { reads = [], writes = [] } = KEYS_USED[step];

    // Assess
    for (const key of [...reads, ...writes]) expect(allows('s3:GetObject', key), key).toBe(true);
    for (const key of writes) expect(allows('s3:PutObject', key), key).toBe(true);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    // Act
    const errors = nagErrors(stack);

    // Assess
    expect(errors).toEqual([]);
  });
});

describe('Class: LoopFunctions with a customer-managed key and an API key secret', () => {
  let outdir: string;
  let stack: Stack;
  let storage: Storage;
  let functions: LoopFunctions;
  let template: Template;
  let secretId: string;
  let gitHubSecretId: string;

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'ralph-infra-functions-kms-'));
    const app = new App({
      context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] },
      outdir,
    });
    stack = new Stack(app, 'FunctionsKmsTest');
    const key = new kms.Key(stack, 'Key', { enableKeyRotation: true });
    storage = new Storage(stack, 'Storage', { encryptionKey: key });
    const anthropicApiKeySecret = new secretsmanager.Secret(stack, 'AnthropicApiKey');
    secretId = logicalIdOf(stack, anthropicApiKeySecret);
    const gitHubSecret = new secretsmanager.Secret(stack, 'GitHubCredentials');
    gitHubSecretId = logicalIdOf(stack, gitHubSecret);
    functions = new LoopFunctions(stack, 'Functions', {
      storage,
      anthropicApiKeySecret,
      gitHubSecret,
      gitHubApiUrl: 'https://github.example.com/api/v3',
    });
    template = Template.fromStack(stack);
  });

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it.each(LOOP_STEPS)(
    'lets %s decrypt with the key, and encrypt too when it writes objects',
    (step) => {
      // Prepare
      const writesObjects = step !== 'pauseRun';

      // Act
      const onKey = permissionsOf(template, stack, functions[step], names(stack, storage)).filter(
        (permission) => permission.startsWith('kms:'),
      );

      // Assess
      expect(onKey).toEqual(
        [
          'kms:Decrypt key',
          'kms:DescribeKey key',
          ...(writesObjects ? ['kms:Encrypt key', 'kms:GenerateDataKey key'] : []),
        ].sort(),
      );
    },
  );

  it.each(LOOP_STEPS)('grants %s the same data actions as without the key', (step) => {
    // Act
    const onData = permissionsOf(template, stack, functions[step], names(stack, storage)).filter(
      (permission) => /^(dynamodb|s3):/.test(permission),
    );

    // Assess
    expect(onData).toEqual([...EXPECTED[step]].sort());
  });

  it('lets only the judge and the gap analysis read the API key', () => {
    // Act
    const readers = LOOP_STEPS.filter((step) =>
      permissionsOf(template, stack, functions[step], { [secretId]: 'secret' }).includes(
        'secretsmanager:GetSecretValue secret',
      ),
    );

    // Assess
    expect(readers).toEqual(['judgeArtefact', 'analyzeGap']);
  });

  it('lets only the pull-request step read the GitHub secret, and tells it where GitHub is', () => {
    // Act
    const readers = LOOP_STEPS.filter((step) =>
      permissionsOf(template, stack, functions[step], { [gitHubSecretId]: 'secret' }).includes(
        'secretsmanager:GetSecretValue secret',
      ),
    );
    const withGitHub = Object.values(
      template.findResources('AWS::Lambda::Function', {
        Properties: {
          Environment: {
            Variables: Match.objectLike({ GITHUB_SECRET_ARN: Match.anyValue() }),
          },
        },
      }),
    );

    // Assess
    expect(readers).toEqual(['openFixPullRequest']);
    expect(withGitHub).toHaveLength(1);
    expect(withGitHub[0]?.Properties.Environment.Variables).toMatchObject({
      GITHUB_SECRET_ARN: { Ref: gitHubSecretId },
      GITHUB_API_URL: 'https://github.example.com/api/v3',
    });
  });

  it('leaves the functions no unacknowledged cdk-nag AwsSolutions errors', () => {
    // Act (the secret stands in for one made outside the stack: its own findings are not ours)
    const errors = nagErrors(functions);

    // Assess
    expect(errors).toEqual([]);
  });
});
