/**
 * What a shell command the agent ran is for: running tests, linting / type checking, or a
 * security scan. A command is split into its simple commands (`&&`, `||`, `;`, `|`), and
 * each is judged by the program it starts, after wrappers (`npx`, `timeout 60`, `FOO=1`,
 * `python -m`), so `npm install vitest` is not a test run.
 */

const WRAPPERS =
  /^(?:\w+=\S*\s+|sudo\s+|time\s+|nice\s+|env\s+|command\s+|exec\s+|timeout\s+(?:-\S+\s+)*\S+\s+|npx\s+(?:--?\S+\s+)*|bunx\s+|pnpm\s+(?:exec|dlx)\s+|yarn\s+(?:exec|dlx)\s+|uv\s+run\s+|poetry\s+run\s+|pipenv\s+run\s+|bundle\s+exec\s+|python[\d.]*\s+-m\s+|node_modules\/\.bin\/|\.\/node_modules\/\.bin\/)/;

/** `cd app && FOO=1 npx vitest run | tee out` → ['cd app', 'vitest run', 'tee out']. */
export function simpleCommands(command: string): string[] {
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((part) => {
      let simple = part.trim().replace(/^[({]\s*/, '');
      for (let stripped = simple.replace(WRAPPERS, ''); stripped !== simple;) {
        simple = stripped;
        stripped = simple.replace(WRAPPERS, '');
      }
      return simple;
    })
    .filter((part) => part !== '');
}

const RUNNER = String.raw`(?:npm|pnpm|yarn|bun)\s+(?:run\s+|run-script\s+)?`;

const TEST_COMMANDS: readonly RegExp[] = [
  new RegExp(String.raw`^${RUNNER}test(?::\S+)?(?:\s|$)`),
  /^npm\s+t(?:\s|$)/,
  /^(?:vitest|jest|mocha|ava|jasmine|karma|cypress\s+run|playwright\s+test|pytest|py\.test|unittest|nose2|tox|nox|rspec|phpunit)(?:\s|$)/,
  /^cargo\s+(?:test|nextest)(?:\s|$)/,
  /^go\s+test(?:\s|$)/,
  /^(?:node|tsx|deno|bun)\s+(?:\S+\s+)*--test(?:\s|=|$)/,
  /^(?:deno|bun)\s+test(?:\s|$)/,
  /^(?:\.\/)?gradlew?\s+(?:\S+\s+)*test(?:\s|$)/,
  /^mvn\s+(?:\S+\s+)*(?:test|verify)(?:\s|$)/,
  /^(?:make|just)\s+test(?:\S*)(?:\s|$)/,
  /^dotnet\s+test(?:\s|$)/,
];

const LINT_COMMANDS: readonly RegExp[] = [
  new RegExp(String.raw`^${RUNNER}(?:lint|typecheck|type-check|check-types|tsc)(?::\S+)?(?:\s|$)`),
  /^(?:eslint|tsc|vue-tsc|ruff|flake8|pylint|mypy|pyright|golangci-lint|staticcheck|rubocop|shellcheck|stylelint|oxlint)(?:\s|$)/,
  /^biome\s+(?:lint|check|ci)(?:\s|$)/,
  /^(?:prettier|black)\s+(?:\S+\s+)*--check(?:\s|$)/,
  /^cargo\s+(?:clippy|check)(?:\s|$)/,
  /^cargo\s+fmt\s+(?:\S+\s+)*--check(?:\s|$)/,
  /^go\s+vet(?:\s|$)/,
];

const SECURITY_COMMANDS: readonly RegExp[] = [
  /^(?:npm|pnpm|yarn|bun)\s+audit(?:\s|$)/,
  new RegExp(String.raw`^${RUNNER}(?:audit|security|scan)(?::\S+)?(?:\s|$)`),
  /^cargo\s+(?:audit|deny)(?:\s|$)/,
  /^(?:semgrep|bandit|gitleaks|trufflehog|trivy|grype|osv-scanner|gosec|govulncheck|pip-audit|retire|njsscan)(?:\s|$)/,
  /^snyk\s+(?:test|code|monitor)(?:\s|$)/,
  /^safety\s+(?:check|scan)(?:\s|$)/,
];

const runs = (patterns: readonly RegExp[]) => (command: string) =>
  simpleCommands(command).some((simple) => patterns.some((pattern) => pattern.test(simple)));

/**
 * Whether the command runs tests (npm test, vitest, jest, pytest, cargo test, go test,
 * tsx --test, node --test, ...).
 *
 * @example
 * isTestCommand('cd app && npx vitest run test/unit') // true
 * isTestCommand('npm install -D vitest')             // false
 */
export const isTestCommand: (command: string) => boolean = runs(TEST_COMMANDS);

/**
 * Whether the command lints or type-checks (eslint, tsc, cargo clippy, ruff, npm run lint, ...).
 *
 * @example
 * isLintCommand('cargo clippy -- -D warnings') // true
 */
export const isLintCommand: (command: string) => boolean = runs(LINT_COMMANDS);

/**
 * Whether the command is a security scan (npm audit, cargo audit, semgrep, gitleaks, ...).
 *
 * @example
 * isSecurityScanCommand('npm audit --audit-level=high') // true
 */
export const isSecurityScanCommand: (command: string) => boolean = runs(SECURITY_COMMANDS);
