import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSessionPolicy } from '../../lambdas/adapters/run-session.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import type { Emulators } from '../../local/emulators.js';
import { REPO_ROOT } from '../../lib/paths.js';
import { bundleRunner } from '../support/agent-bundle.js';
import {
  startCredentialEndpoint,
  startStsStandIn,
  type CredentialEndpoint,
  type StandIn,
} from '../support/aws-stand-ins.js';
import { scenario, storedResult, useRunnerScenarios } from '../support/runner-scenario.js';

/** The unprivileged user of the test machine; the image creates its own (`agent`). */
const AGENT_USER = { name: 'nobody', uid: 65534, gid: 65534 };
const RUNNER_ROLE_ARN = 'arn:aws:iam::123456789012:role/ralph-runner';
const AGENT_MODEL_ROLE_ARN = 'arn:aws:iam::123456789012:role/ralph-agent-model';
/** What STS gives for the agent model role: keys the emulators do not know. */
const AGENT_MODEL_KEYS = { accessKeyId: 'AKIDAGENTMODEL', secretAccessKey: 'agent-model-secret' };
const GIT_TOKEN = `ghp_marker${Date.now()}`;
const RUNNER_SECRET = `runner-secret-${Date.now()}`;

interface Attempts {
  modelAccess: { bedrock: string; keyId: string };
  environ: Record<string, string>;
  runnerFile: string;
  credentialEndpoint: Record<string, number | string>;
  credentials: string;
  put: string;
}

let artefacts: S3ArtefactStore;
let emulators: Emulators;
useRunnerScenarios((stores) => ({ artefacts, emulators } = stores));

/**
 * The runner's bundle, run as the container runs it (root, `RALPH_AGENT_USER`, credentials
 * from the container endpoint, a run-scoped session from STS), with a hostile agent.
 * Switching users needs root: the CI machine's tests run as root.
 */
describe.skipIf(process.getuid?.() !== 0)('The agent container: a confined agent', () => {
  let scratch: string;
  let runner: string;
  let credentialEndpoint: CredentialEndpoint;
  let sts: StandIn;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-confined-'));
    // As /workspace in the image: the agent user can reach what is handed to it below.
    await chmod(scratch, 0o755);
    runner = await bundleRunner('agent/main.ts', await mkdtemp(join(scratch, 'app-')), {
      templates: true,
    });
    credentialEndpoint = await startCredentialEndpoint(emulators.credentials);
    sts = await startStsStandIn(emulators.credentials, (roleArn) =>
      roleArn === AGENT_MODEL_ROLE_ARN ? AGENT_MODEL_KEYS : emulators.credentials,
    );
  });
  afterAll(async () => {
    await Promise.all([credentialEndpoint.close(), sts.close()]);
    await rm(scratch, { recursive: true, force: true });
  });

  it('gives the agent none of the runner environment, files or credentials, and records a failed iteration', async () => {
    // Prepare: the agent's world is its clone and $OUT; the runner's home holds a secret.
    const runnerHome = join(scratch, 'runner-home');
    await mkdir(runnerHome, { mode: 0o700 });
    const runnerFile = join(runnerHome, 'credentials');
    await writeFile(runnerFile, RUNNER_SECRET, { mode: 0o600 });
    // The remote is a directory the agent's user owns (it clones it), which the runner (root)
    // pushes to: git refuses another user's repository unless told it is safe. A remote on
    // a forge has no such owner.
    await writeFile(join(runnerHome, '.gitconfig'), '[safe]\n\tdirectory = *\n');
    const target = {
      credentialBase: credentialEndpoint.url,
      s3Endpoint: emulators.s3Endpoint,
      region: emulators.region,
      bucket: emulators.bucketName,
      otherRunId: 'someone-elses-run',
      runnerFile,
      s3Module: createRequire(join(REPO_ROOT, 'package.json')).resolve('@aws-sdk/client-s3'),
    };
    const attack = join(REPO_ROOT, 'test/fixtures/agents/break-out.mjs');
    const { runId, repo, out } = await scenario({
      agent: `node ${attack} '${JSON.stringify(target)}'`,
      repo: (path) => ({ kind: 'git', url: `file://${path}` }),
      agentTimeoutSeconds: 60,
    });
    // The remote is the agent user's (git refuses to serve another user's repository).
    await execa('chown', ['-R', `${AGENT_USER.uid}:${AGENT_USER.gid}`, repo]);
    await chmod(out, 0o777);
    const workspaceRoot = await mkdtemp(join(scratch, 'workspace-'));

    // Act
    const container = execa('node', [runner], {
      reject: false,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: runnerHome,
        RALPH_RUN_ID: runId,
        RALPH_ITERATION: '1',
        TABLE_NAME: emulators.tableName,
        BUCKET_NAME: emulators.bucketName,
        AWS_REGION: emulators.region,
        AWS_ENDPOINT_URL_DYNAMODB: emulators.dynamoEndpoint,
        AWS_ENDPOINT_URL_S3: emulators.s3Endpoint,
        AWS_ENDPOINT_URL_STS: sts.url,
        AWS_CONTAINER_CREDENTIALS_FULL_URI: credentialEndpoint.fullUri,
        RALPH_RUNNER_ROLE_ARN: RUNNER_ROLE_ARN,
        RALPH_AGENT_MODEL_ROLE_ARN: AGENT_MODEL_ROLE_ARN,
        RALPH_AGENT_USER: AGENT_USER.name,
        RALPH_WORKSPACE_ROOT: workspaceRoot,
        GIT_TOKEN,
      },
      extendEnv: false,
    });
    const runnerPid = String(container.pid);
    const exited = await container;

    // Assess: the iteration ran and was recorded as the agent's failure, not a crash.
    expect(exited.stderr.split('\n').filter((line) => line.includes('"ERROR"'))).toEqual([]);
    expect(exited.exitCode, exited.stdout).toBe(0);
    const result = await storedResult(runId);
    expect(result.cause).toBe('the agent exited with code 1');
    expect(result.outcome).toBe('agent_failed');

    // The agent read no one's environment but its own, not the runner's file...
    const attempts = JSON.parse(await readFile(join(out, 'attempts.json'), 'utf8')) as Attempts;
    expect(attempts.environ['1']).toBe('EACCES');
    expect(attempts.environ[runnerPid]).toBe('EACCES');
    expect(attempts.runnerFile).toBe('EACCES');
    const loot = await readFile(join(out, 'loot.txt'), 'utf8');
    for (const secret of [
      GIT_TOKEN,
      RUNNER_SECRET,
      credentialEndpoint.fullUri,
      RUNNER_ROLE_ARN,
      AGENT_MODEL_ROLE_ARN,
      emulators.credentials.accessKeyId,
    ])
      expect(loot).not.toContain(secret);
    expect(loot).not.toMatch(/^(AWS_CONTAINER_|ECS_|TABLE_NAME|BUCKET_NAME)/m);

    // Its model access is a session of the agent model role, and nothing more.
    expect(attempts.modelAccess).toEqual({ bedrock: '1', keyId: AGENT_MODEL_KEYS.accessKeyId });

    // ...found no credentials, so wrote nothing of another run's.
    expect(Object.values(attempts.credentialEndpoint)).toEqual([404, 404]);
    expect(attempts.credentials).toBe('none');
    expect(attempts.put).not.toBe('written');
    expect(
      await artefacts.exists(artefactKeys.iteration(target.otherRunId, 1, 'result.json')),
    ).toBe(false);

    // The runner itself got the task role's keys from the endpoint, then a session scoped to
    // its own iteration from STS, signed with those keys.
    expect(
      credentialEndpoint.seen.filter((seen) => seen.path.startsWith('/v2/credentials/')),
    ).toContainEqual({ method: 'GET', path: new URL(credentialEndpoint.fullUri).pathname });
    const assumed = sts.seen.filter(
      (seen) => seen.form?.Action === 'AssumeRole' && seen.form.RoleArn === RUNNER_ROLE_ARN,
    );
    expect(assumed.length).toBeGreaterThan(0);
    expect(
      sts.seen
        .filter((seen) => seen.form?.RoleArn === AGENT_MODEL_ROLE_ARN)
        .map((seen) => seen.signedBy),
    ).toEqual([emulators.credentials.accessKeyId]);
    for (const call of assumed) {
      expect(call.signedBy).toBe(emulators.credentials.accessKeyId);
      expect(call.form?.RoleArn).toBe(RUNNER_ROLE_ARN);
      expect(JSON.parse(call.form?.Policy ?? '{}')).toEqual(
        runSessionPolicy({ runId, iteration: 1, bucketName: emulators.bucketName }),
      );
    }
  });
});
