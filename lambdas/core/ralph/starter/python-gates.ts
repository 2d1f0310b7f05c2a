/**
 * Gates of a Python project: mypy, ruff and pytest when pyproject.toml configures them
 * (a `[tool.*]` table) or lists them as dependencies, run through the project's tool (uv,
 * Poetry, PDM) when its lockfile is there. Read by line, not as TOML: only table headers
 * and dependency names matter here.
 */
import type { DetectedGate, EcosystemGates, RepositoryFiles } from './repository-files.js';

interface PythonTool {
  gate: string;
  tool: string;
  command: string;
  /** The `[tool.<table>]` that configures it. */
  table: string;
}

/** In the order gates run: cheapest first. */
const TOOLS: readonly PythonTool[] = [
  { gate: 'typecheck', tool: 'mypy', command: 'mypy .', table: 'mypy' },
  { gate: 'lint', tool: 'ruff', command: 'ruff check .', table: 'ruff' },
  { gate: 'test', tool: 'pytest', command: 'pytest', table: 'pytest.ini_options' },
];

/** Lockfile (or tool table) → the prefix that runs a command in the project's environment. */
const RUNNERS: readonly { lockfile: string; table: string; prefix: string }[] = [
  { lockfile: 'uv.lock', table: 'uv', prefix: 'uv run' },
  { lockfile: 'poetry.lock', table: 'poetry', prefix: 'poetry run' },
  { lockfile: 'pdm.lock', table: 'pdm', prefix: 'pdm run' },
];

export function pythonGates(files: RepositoryFiles): EcosystemGates | undefined {
  const text = files.manifests['pyproject.toml'];
  if (text === undefined) return undefined;
  const runner = RUNNERS.find(
    ({ lockfile, table }) => files.present.has(lockfile) || hasTable(text, table),
  );
  const gates: DetectedGate[] = [];
  const notes: string[] = [];
  for (const { gate, tool, command, table } of TOOLS) {
    const because = hasTable(text, table)
      ? `pyproject.toml [tool.${table}]`
      : lists(text, tool)
        ? `pyproject.toml lists ${tool}`
        : undefined;
    if (because === undefined) continue;
    gates.push({
      name: gate,
      command: runner ? `${runner.prefix} ${command}` : command,
      because: runner
        ? `${because}; ${runner.prefix} from ${runnerSource(files, runner)}`
        : because,
    });
  }
  if (gates.length === 0)
    notes.push('pyproject.toml configures none of mypy, ruff, pytest: no Python gate');
  return { ecosystem: 'python', gates, notes };
}

/** A `[tool.<name>]` table header, or one of its sub-tables (`[tool.ruff.lint]`). */
function hasTable(text: string, name: string): boolean {
  return new RegExp(`^\\s*\\[tool\\.${escape(name)}(\\.[^\\]]*)?\\]`, 'm').test(text);
}

/**
 * `name` as a dependency: `"pytest>=8"`, `'ruff'`, `mypy = "^1.10"`, but not `pytest-cov`
 * or `mypy-extensions`.
 */
function lists(text: string, name: string): boolean {
  return new RegExp(`(^|["'\\s])${escape(name)}\\s*(["'=<>~!;,\\[]|$)`, 'm').test(text);
}

function runnerSource(files: RepositoryFiles, runner: (typeof RUNNERS)[number]): string {
  return files.present.has(runner.lockfile) ? runner.lockfile : `[tool.${runner.table}]`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
