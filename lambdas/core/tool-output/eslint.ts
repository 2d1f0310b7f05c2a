/**
 * eslint's stylish format: the `✖ 5 problems (2 errors, 3 warnings)` summary when printed,
 * else its `  3:10  error  ...` lines. eslint names no failing test and no compiler error.
 */
import type { Diagnostics, ToolFamily } from './family.js';

/** `  3:10  error  'x' is defined but never used  no-unused-vars` */
const STYLISH_LINE = /^\s+\d+:\d+\s+(error|warning)\s{2,}\S/;

function counts(lines: readonly string[]): Diagnostics | undefined {
  let summary: Diagnostics | undefined;
  const stylish: Diagnostics = { tool: 'eslint', errors: 0, warnings: 0 };
  for (const line of lines) {
    const total = /^\s*(?:✖|×)?\s*\d+ problems? \((\d+) errors?, (\d+) warnings?\)/.exec(line);
    if (total) {
      summary = {
        tool: 'eslint',
        errors: (summary?.errors ?? 0) + Number(total[1]),
        warnings: (summary?.warnings ?? 0) + Number(total[2]),
      };
      continue;
    }
    const item = STYLISH_LINE.exec(line);
    if (item) stylish[item[1] === 'error' ? 'errors' : 'warnings'] += 1;
  }
  if (summary) return summary;
  return stylish.errors + stylish.warnings > 0 ? stylish : undefined;
}

export const eslint: ToolFamily = {
  name: 'eslint',
  read: (output) => ({ tests: [], diagnostics: counts(output.terminal), failures: [] }),
  errorLines: [/^\s*\d+:\d+\s+error\s{2,}\S/],
};

/** Commands that run eslint by name (`npx eslint .`; not `eslint-config-check`). */
export const ESLINT_COMMAND = /(?:^|[\s/;&|])eslint(?:\s|$)/;
