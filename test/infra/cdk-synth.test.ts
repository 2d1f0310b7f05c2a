import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/paths.js';

interface Outcome {
  readonly exitCode: number | null;
  readonly output: string;
}

/** Runs a command in the repository root and collects its exit code and output. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, output }));
  });
}

/**
 * The environment of a machine with no AWS account: no credentials, no profile, no
 * instance metadata, no default account or region.
 */
function offlineEnv(scratch: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // NODE_ENV=test (set by vitest) would switch CDK into its in-memory test mode.
    if (key.startsWith('AWS_') || key.startsWith('CDK_') || key === 'NODE_ENV') continue;
    env[key] = value;
  }
  return {
    ...env,
    AWS_CONFIG_FILE: join(scratch, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(scratch, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    CDK_DISABLE_VERSION_CHECK: 'true',
  };
}

/** A synthesis bundles every loop function in a child process; give it room on a busy machine. */
const SUBPROCESS_TIMEOUT_MS = 180_000;

describe('Synthesis without AWS credentials', () => {
  let scratch: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'ralph-infra-synth-'));
  });

  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it(
    'runs `cdk synth` offline and writes the template',
    async () => {
      // Prepare
      const outdir = join(scratch, 'cli-out');
      const args = ['cdk', 'synth', '--quiet', '--no-notices', '-o', outdir];

      // Act
      const { exitCode, output } = await run('npx', args, offlineEnv(scratch));

      // Assess
      expect(exitCode, output).toBe(0);
      expect(existsSync(join(outdir, 'RalphCloud.template.json'))).toBe(true);
      // cdk-nag's AwsSolutions checks run during synthesis: no unacknowledged finding.
      const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as {
        pluginReports: {
          pluginName: string;
          violations: { ruleName: string; severity: string }[];
        }[];
      };
      const annotations = report.pluginReports.filter(
        (plugin) => plugin.pluginName === 'Construct Annotations',
      );
      expect(report.pluginReports.filter((plugin) => !annotations.includes(plugin))).toEqual([]);
      // With no model configured, synthesis says so (a warning, not a failure).
      expect(annotations.flatMap((plugin) => plugin.violations)).toEqual([
        expect.objectContaining({ ruleName: 'Annotation::ralph:no-model', severity: 'warning' }),
      ]);
    },
    SUBPROCESS_TIMEOUT_MS,
  );
});
