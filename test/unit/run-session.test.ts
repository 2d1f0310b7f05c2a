import { describe, expect, it } from 'vitest';
import { runSessionPolicy } from '../../lambdas/adapters/run-session.js';
import { findUser } from '../../agent/process/untrusted-identity.js';
import { runStoreKeys } from '../../lambdas/adapters/dynamodb/run-items.js';
import { RUNNER_PARTITIONS } from '../../lambdas/adapters/runner-access.js';

describe('Function: runSessionPolicy', () => {
  it("allows one iteration's objects and one run's items, and refuses the judge's verdicts", () => {
    // Act
    const policy = runSessionPolicy({ runId: 'run-7', iteration: 3, bucketName: 'artefacts' });

    // Assess
    expect(policy.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: '*',
        Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['RUN#run-7'] } },
      },
      {
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject'],
        Resource: [
          'arn:*:s3:::artefacts/runs/run-7/iterations/3/*',
          'arn:*:s3:::artefacts/runs/run-7/progress-archive/3.txt',
        ],
      },
      {
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: 'arn:*:s3:::artefacts',
        Condition: { StringLike: { 's3:prefix': ['runs/run-7/iterations/3/*'] } },
      },
      {
        Effect: 'Deny',
        Action: ['s3:PutObject'],
        Resource: 'arn:*:s3:::artefacts/runs/run-7/iterations/3/expensive/*',
      },
    ]);
    // A session policy may not exceed 2,048 characters once packed.
    expect(JSON.stringify(policy).length).toBeLessThan(2048);
  });

  it("keeps the runner role's partitions in step with the run keys", () => {
    // Assess
    expect(RUNNER_PARTITIONS).toEqual([runStoreKeys.runPk('*')]);
  });

  it('refuses a run id that would widen the keys', () => {
    // Act
    const policy = () => runSessionPolicy({ runId: '*', iteration: 1, bucketName: 'b' });

    // Assess
    expect(policy).toThrow('run id: "*" is unsafe in an S3 key');
  });
});

describe('Function: findUser', () => {
  const passwd = [
    'root:x:0:0:root:/root:/bin/bash',
    'agent:x:1001:1001::/home/agent:/bin/sh',
    '',
  ].join('\n');

  it('finds the user, its group and home', () => {
    // Act
    const agent = findUser(passwd, 'agent');

    // Assess
    expect(agent).toEqual({ name: 'agent', uid: 1001, gid: 1001, home: '/home/agent' });
  });

  it('refuses root and an unknown user, naming the variable', () => {
    // Act
    const asRoot = () => findUser(passwd, 'root');
    const unknown = () => findUser(passwd, 'agnet');

    // Assess
    expect(asRoot).toThrow('RALPH_AGENT_USER: root is root (uid 0)');
    expect(unknown).toThrow('RALPH_AGENT_USER: no user agnet in /etc/passwd');
  });
});
