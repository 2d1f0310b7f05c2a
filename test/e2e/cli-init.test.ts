import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli } from '../support/cli.js';
import { makeGitRepo } from '../support/git-repo.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

/** A committed repository holding `files`, removed after the file's tests. */
async function repoWith(files: Record<string, string>): Promise<string> {
  const repo = await makeGitRepo(files);
  cleanups.push(repo.cleanup);
  return repo.path;
}

/** `ralph validate` on both files init wrote: what `ralph run` will read. */
async function expectValid(repo: string): Promise<void> {
  for (const file of ['prd.json', 'ralph.config.json']) {
    const result = await runCli(['validate', join(repo, file)]);
    expect(result.exitCode, `${file}: ${result.stdout}${result.stderr}`).toBe(0);
  }
}

interface InitJson {
  config: { gates: { name: string; command: string }[] };
  gates: { name: string; command: string; because: string }[];
}

describe('Command: ralph init', () => {
  it.each<{ ecosystem: string; files: Record<string, string>; gates: string[] }>([
    {
      ecosystem: 'node',
      files: {
        'package.json': JSON.stringify({
          name: 'web',
          scripts: { test: 'vitest run', lint: 'eslint .' },
        }),
        'package-lock.json': '{}',
      },
      gates: ['lint: npm run lint', 'test: npm test'],
    },
    {
      ecosystem: 'python',
      files: {
        'pyproject.toml': '[project]\nname = "svc"\n[tool.pytest.ini_options]\n[tool.ruff]\n',
      },
      gates: ['lint: ruff check .', 'test: pytest'],
    },
    {
      ecosystem: 'rust',
      files: { 'Cargo.toml': '[package]\nname = "crate"\nversion = "0.1.0"\n' },
      gates: ['lint: cargo clippy --all-targets -- -D warnings', 'test: cargo test'],
    },
    {
      ecosystem: 'go',
      files: { 'go.mod': 'module example.com/svc\n\ngo 1.22\n' },
      gates: ['vet: go vet ./...', 'test: go test ./...'],
    },
  ])('writes valid files with the $ecosystem gates and says why each', async ({ files, gates }) => {
    // Prepare
    const repo = await repoWith(files);

    // Act
    const result = await runCli(['init', '--repo', repo]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    const config = JSON.parse(
      await readFile(join(repo, 'ralph.config.json'), 'utf8'),
    ) as InitJson['config'];
    expect(config.gates.map(({ name, command }) => `${name}: ${command}`)).toEqual(gates);
    for (const gate of config.gates) expect(result.stdout).toContain(gate.command);
    expect(result.stdout).toMatch(/because/);
    expect(result.stdout).not.toMatch(/no gates found/);
    await expectValid(repo);
  });

  it('says loudly that an empty repository got no gates, and still writes valid files', async () => {
    // Prepare
    const repo = await repoWith({ 'README.md': '# nothing to build\n' });

    // Act
    const result = await runCli(['init', '--repo', repo]);
    const json = await runCli(['--json', 'init', '--repo', repo, '--force']);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(
      /^!! no gates found: a run will verify nothing; add one to ralph\.config\.json/m,
    );
    expect(jsonOf<{ warning?: string }>(json).warning).toMatch(/^no gates found/);
    const prd = JSON.parse(await readFile(join(repo, 'prd.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(prd).toMatchObject({ branchName: expect.stringMatching(/^ralph\/[a-z0-9-]+$/) });
    await expectValid(repo);
  });

  it('refuses to overwrite either file (exit 2, naming it) and replaces both with --force', async () => {
    // Prepare
    const repo = await repoWith({ 'go.mod': 'module x\n', 'ralph.config.json': '{"gates": []}\n' });

    // Act
    const refused = await runCli(['init', '--repo', repo]);
    const forced = await runCli(['--json', 'init', '--repo', repo, '--force']);

    // Assess
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(join(repo, 'ralph.config.json'));
    expect(refused.stderr).toMatch(/--force/);
    expect(forced.exitCode).toBe(0);
    const json = jsonOf<InitJson>(forced);
    expect(json.config.gates.map((gate) => gate.command)).toEqual([
      'go vet ./...',
      'go test ./...',
    ]);
    expect(json.gates[0]).toMatchObject({ because: 'go.mod' });
    expect(JSON.parse(await readFile(join(repo, 'ralph.config.json'), 'utf8'))).toEqual(
      json.config,
    );
  });

  it('refuses a prd.json in scripts/ralph/, which the new one would hide from ralph run', async () => {
    // Prepare
    const repo = await repoWith({ 'scripts/ralph/prd.json': '{}' });

    // Act
    const result = await runCli(['init', '--repo', repo]);

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(join('scripts', 'ralph', 'prd.json'));
  });

  it('refuses a directory that is not a git repository (exit 2) and writes nothing', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'ralph-not-git-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));

    // Act
    const result = await runCli(['init', '--repo', dir]);

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/is not a git repository/);
    await expect(readFile(join(dir, 'prd.json'))).rejects.toThrow();
  });
});
