import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/paths.js';

/** A Node 22 binary (.ci/run fetches one from the npm registry); unset, that run is skipped. */
const NODE22 = process.env.RALPH_TEST_NODE22 || undefined;
const INSTALL_TIMEOUT_MS = 8 * 60_000;
const RUN_TIMEOUT_MS = 5 * 60_000;

/**
 * The CLI as a person gets it: `npm pack` (which builds dist/ first), the tarball installed
 * into an empty prefix, and the installed `ralph` run from a directory that is neither the
 * clone nor the installation. It must need nothing of the clone (no tsx for its own code,
 * no node_modules/.bin of ours) and leave nothing in the directory it runs from.
 */
describe('Packaged CLI: npm pack, npm install, ralph from another directory', () => {
  let scratch: string;
  /** The installation's bin directory, which holds `ralph`. */
  let bin: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-packaged-'));
    await execa('npm', ['pack', '--pack-destination', scratch], { cwd: REPO_ROOT });
    const [tarball] = (await readdir(scratch)).filter((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack wrote no tarball to ${scratch}`);
    const prefix = join(scratch, 'prefix');
    await execa(
      'npm',
      ['install', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'].concat(
        join(scratch, tarball),
      ),
      { cwd: scratch },
    );
    bin = join(prefix, 'node_modules', '.bin');
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  /** `command` run by a shell in `cwd`, `ralph` and `node` found on PATH as a person's shell would. */
  function shell(command: string, cwd: string, options: { node: string; env?: NodeJS.ProcessEnv }) {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
    // The offline judge and proposer: every figure is deterministic.
    delete env.ANTHROPIC_API_KEY;
    env.PATH = [bin, dirname(options.node), process.env.PATH ?? ''].join(delimiter);
    return execa(command, {
      shell: true,
      cwd,
      env,
      extendEnv: false,
      reject: false,
      all: true,
      timeout: RUN_TIMEOUT_MS,
    });
  }

  /**
   * `ralph example` (with `args`) in an empty directory: it completes, the details it
   * prints are commands that work as printed, and the directory stays empty.
   */
  async function runExample(
    node: string,
    args: string,
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ output: string; details: string }> {
    const cwd = await mkdtemp(join(scratch, 'cwd-'));
    const { stdout: version } = await shell('node --version', cwd, { node, env });
    expect(version).toBe(await nodeVersion(node));

    const run = await shell(`ralph example ${args}`, cwd, { node, env });

    expect(run.exitCode, run.all).toBe(0);
    expect(run.all).toMatch(/^run r[\w-]+: completed — all 4 stories pass their gates/m);
    const details = /^details: +(.+)$/m.exec(run.all ?? '')?.[1] ?? '';
    const status = details.split('·').find((hint) => hint.trim().startsWith('ralph status '));
    expect(status, details).toBeDefined();
    const shown = await shell(status!.trim(), cwd, { node, env });
    expect(shown.exitCode, shown.all).toBe(0);
    expect(shown.all).toMatch(/^stories +4 of 4 pass$/m);
    expect(await readdir(cwd)).toEqual([]);
    return { output: run.all ?? '', details };
  }

  it(
    `completes the example on this Node (${process.version}) with --data-dir, which its hints repeat`,
    async () => {
      // Arrange
      const dataDir = join(scratch, 'data dir'); // a space: the hints must quote it

      // Act
      const { output, details } = await runExample(process.execPath, `--data-dir '${dataDir}'`);

      // Assess
      expect(output).toContain(`example repository: ${join(dataDir, 'example')}`);
      expect(details).toContain(`--data-dir '${dataDir}'`);

      // The HTML report: the installed CLI finds its chart script and uPlot (a dependency).
      const runId = /ralph status (\S+)/.exec(details)?.[1];
      const report = join(scratch, 'report.html');
      const written = await shell(
        `ralph show ${runId} --html '${report}' --data-dir '${dataDir}'`,
        scratch,
        { node: process.execPath },
      );
      expect(written.exitCode, written.all).toBe(0);
      const html = await readFile(report, 'utf8');
      expect(html).toContain('window.ralphCharts');
      expect(html).toMatch(/var uPlot=function/);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    NODE22
      ? `completes the example on Node 22 (${NODE22}) in the per-user data dir, with hints that need no --data-dir`
      : 'completes the example on Node 22: SKIPPED, RALPH_TEST_NODE22 names no Node 22 binary (.ci/run fetches one)',
    async ({ skip }) => {
      if (!NODE22) return skip();
      // Arrange
      const state = join(scratch, 'state');
      const env = { XDG_STATE_HOME: state, RALPH_DATA_DIR: undefined };

      // Act
      const { output, details } = await runExample(NODE22, '', env);

      // Assess
      expect(await nodeVersion(NODE22)).toMatch(/^v22\./);
      expect(output).toContain(`example repository: ${join(state, 'ralph-cloud', 'example')}`);
      expect(details).not.toContain('--data-dir');
    },
    RUN_TIMEOUT_MS,
  );

  it('prints its help from another directory, naming the per-user data dir', async () => {
    // Arrange
    const cwd = await mkdtemp(join(scratch, 'cwd-'));
    const state = join(scratch, 'help-state');

    // Act
    const help = await shell('ralph --help', cwd, {
      node: process.execPath,
      env: { XDG_STATE_HOME: state, RALPH_DATA_DIR: undefined },
    });

    // Assess
    expect(help.exitCode, help.all).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      `(default: "${join(state, 'ralph-cloud')}", env: RALPH_DATA_DIR)`,
    );
    expect(await readdir(cwd)).toEqual([]);
  });
});

async function nodeVersion(node: string): Promise<string> {
  return (await execa(node, ['--version'])).stdout;
}
