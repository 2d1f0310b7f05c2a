import { describe, expect, it } from 'vitest';
import { detectGates } from '../../lambdas/core/ralph/starter/detect-gates.js';
import type {
  ManifestName,
  RepositoryFiles,
} from '../../lambdas/core/ralph/starter/repository-files.js';
import { starterConfig } from '../../lambdas/core/ralph/starter/starter-config.js';
import { starterBranchName, starterPrd } from '../../lambdas/core/ralph/starter/starter-prd.js';
import { PrdSchema } from '../../lambdas/core/schemas/prd.js';
import { RunConfigSchema } from '../../lambdas/core/schemas/config.js';

function repository(
  manifests: Partial<Record<ManifestName, string>>,
  present: string[] = [],
): RepositoryFiles {
  return { manifests, present: new Set(present) };
}

const commands = (files: RepositoryFiles) =>
  detectGates(files).gates.map(({ name, command }) => `${name}: ${command}`);

const packageJson = (scripts: Record<string, string>, extra: object = {}) =>
  JSON.stringify({ name: 'app', scripts, ...extra });

describe('Function: detectGates', () => {
  describe('Node', () => {
    it('runs the typecheck, lint, test and build scripts with the lockfile’s package manager', () => {
      // Prepare
      const scripts = { build: 'tsc', test: 'vitest run', lint: 'eslint .', typecheck: 'tsc -b' };

      // Act
      const npm = commands(
        repository({ 'package.json': packageJson(scripts) }, ['package-lock.json']),
      );
      const pnpm = commands(
        repository({ 'package.json': packageJson(scripts) }, ['pnpm-lock.yaml']),
      );
      const detection = detectGates(
        repository({ 'package.json': packageJson(scripts) }, ['yarn.lock']),
      );

      // Assess
      expect(npm).toEqual([
        'typecheck: npm run typecheck',
        'lint: npm run lint',
        'test: npm test',
        'build: npm run build',
      ]);
      expect(pnpm).toContain('test: pnpm run test');
      expect(detection.gates.find((gate) => gate.name === 'lint')).toEqual({
        name: 'lint',
        command: 'yarn run lint',
        because: 'package.json scripts.lint; yarn from yarn.lock',
      });
      expect(detection.ecosystems).toEqual(['node']);
    });

    it('prefers package.json packageManager to a lockfile, and runs bun scripts with bun run', () => {
      // Act
      const gates = commands(
        repository(
          { 'package.json': packageJson({ test: 'bun test' }, { packageManager: 'bun@1.1.0' }) },
          ['package-lock.json'],
        ),
      );

      // Assess
      expect(gates).toEqual(['test: bun run test']);
    });

    it('skips npm’s placeholder test script and says so', () => {
      // Act
      const detection = detectGates(
        repository({
          'package.json': packageJson({ test: 'echo "Error: no test specified" && exit 1' }),
        }),
      );

      // Assess
      expect(detection.gates).toEqual([]);
      expect(detection.notes.join('\n')).toMatch(/placeholder/);
    });

    it('typechecks with tsc when tsconfig.json is there and no script does', () => {
      // Act
      const gates = commands(
        repository({ 'package.json': packageJson({ test: 'vitest' }) }, [
          'tsconfig.json',
          'pnpm-lock.yaml',
        ]),
      );

      // Assess
      expect(gates).toEqual(['typecheck: pnpm exec tsc --noEmit', 'test: pnpm run test']);
    });

    it('reports a package.json that is not an object instead of failing', () => {
      // Act
      const detection = detectGates(repository({ 'package.json': '[1, 2' }));

      // Assess
      expect(detection.gates).toEqual([]);
      expect(detection.notes).toEqual([expect.stringMatching(/not a JSON object/)]);
    });
  });

  describe('Python', () => {
    it('uses mypy, ruff and pytest that pyproject.toml configures, through uv when uv.lock is there', () => {
      // Prepare
      const pyproject = [
        '[project]',
        'name = "svc"',
        'dependencies = ["httpx"]',
        '[tool.ruff.lint]',
        'select = ["E"]',
        '[tool.mypy]',
        'strict = true',
        '[tool.pytest.ini_options]',
        'testpaths = ["tests"]',
      ].join('\n');

      // Act
      const detection = detectGates(repository({ 'pyproject.toml': pyproject }, ['uv.lock']));

      // Assess
      expect(detection.gates.map(({ name, command }) => `${name}: ${command}`)).toEqual([
        'typecheck: uv run mypy .',
        'lint: uv run ruff check .',
        'test: uv run pytest',
      ]);
      expect(detection.gates[0]!.because).toBe('pyproject.toml [tool.mypy]; uv run from uv.lock');
    });

    it('finds tools listed as dependencies, but not packages whose names only start alike', () => {
      // Prepare
      const pyproject = [
        '[project.optional-dependencies]',
        'dev = ["pytest>=8", "pytest-cov", "mypy-extensions"]',
      ].join('\n');

      // Act
      const detection = detectGates(repository({ 'pyproject.toml': pyproject }));

      // Assess
      expect(detection.gates).toEqual([
        { name: 'test', command: 'pytest', because: 'pyproject.toml lists pytest' },
      ]);
    });

    it('runs through Poetry for a Poetry project, and notes a pyproject.toml with no tool', () => {
      // Act
      const poetry = commands(
        repository({ 'pyproject.toml': '[tool.poetry.group.dev.dependencies]\npytest = "^8.0"\n' }),
      );
      const bare = detectGates(repository({ 'pyproject.toml': '[project]\nname = "x"\n' }));

      // Assess
      expect(poetry).toEqual(['test: poetry run pytest']);
      expect(bare.gates).toEqual([]);
      expect(bare.notes).toEqual([expect.stringMatching(/none of mypy, ruff, pytest/)]);
    });
  });

  describe('Rust and Go', () => {
    it('lints with clippy and tests with cargo for Cargo.toml', () => {
      expect(commands(repository({ 'Cargo.toml': '[package]\nname = "x"\n' }))).toEqual([
        'lint: cargo clippy --all-targets -- -D warnings',
        'test: cargo test',
      ]);
    });

    it('vets and tests every package for go.mod', () => {
      expect(commands(repository({ 'go.mod': 'module example.com/x\n' }))).toEqual([
        'vet: go vet ./...',
        'test: go test ./...',
      ]);
    });
  });

  describe('several ecosystems', () => {
    it('keeps each one’s gates, the later clashing names suffixed with the ecosystem', () => {
      // Act
      const detection = detectGates(
        repository({
          'package.json': packageJson({ test: 'vitest run' }),
          'go.mod': 'module x\n',
        }),
      );

      // Assess
      expect(detection.gates.map((gate) => gate.name)).toEqual(['test', 'vet', 'test-go']);
      expect(() => starterConfig(detection.gates)).not.toThrow();
    });

    it('fills in from a Makefile only what no ecosystem covers', () => {
      // Prepare
      const makefile = 'lint:\n\truff check .\ntest: build\n\tpytest\nVAR := test\n';

      // Act
      const withGo = detectGates(repository({ 'go.mod': 'module x\n', Makefile: makefile }));
      const alone = commands(repository({ Makefile: makefile }));

      // Assess
      expect(withGo.gates.map((gate) => gate.command)).toEqual([
        'go vet ./...',
        'go test ./...',
        'make lint',
      ]);
      expect(withGo.notes).toEqual(['Makefile target test: not used, test is already covered']);
      expect(alone).toEqual(['lint: make lint', 'test: make test']);
    });
  });

  it('finds nothing in a repository with no manifest', () => {
    expect(detectGates(repository({}))).toEqual({ gates: [], ecosystems: [], notes: [] });
  });
});

describe('Function: starterPrd', () => {
  it('is a valid prd.json with one open story and a branch named after the project', () => {
    // Act
    const prd = starterPrd('My App!');

    // Assess
    expect(PrdSchema.safeParse(prd).success).toBe(true);
    expect(prd.branchName).toBe('ralph/my-app');
    expect(prd.userStories).toHaveLength(1);
    expect(prd.userStories[0]!.passes).toBe(false);
  });

  it('names a branch git takes even when the project name has nothing usable', () => {
    expect(starterBranchName('..')).toBe('ralph/start');
    expect(starterBranchName('Ünïcode ✓ repo.lock')).toBe('ralph/n-code-repo-lock');
  });
});

describe('Function: starterConfig', () => {
  it('writes only the gates, and RunConfigSchema reads it with its defaults', () => {
    // Act
    const config = starterConfig([{ name: 'test', command: 'npm test', because: 'x' }]);

    // Assess
    expect(config).toEqual({ gates: [{ name: 'test', command: 'npm test' }] });
    expect(RunConfigSchema.parse(config).gates[0]).toMatchObject({ blocking: true });
  });
});
