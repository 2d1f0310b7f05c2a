/**
 * Security scanners (npm / pnpm / yarn audit, trivy, snyk and the like): vulnerability
 * counts by severity read from their summaries (design §3.9 `security_clean`, §5.2
 * `blockOnCritical` / `blockOnHigh`). Only summaries a scanner really prints are read;
 * output no reader recognises gives `undefined`, never a made-up 0.
 */
import { z } from 'zod';

export const SEVERITIES = ['critical', 'high', 'moderate', 'low', 'info'] as const;
export const SeveritySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof SeveritySchema>;

/** Which kind of summary the counts came from, most precise first. */
export const SECURITY_SUMMARY_FORMATS = ['json', 'npm', 'severity-line', 'generic'] as const;

const Count = z.number().int().nonnegative();

export const SecurityCountsSchema = z.object({
  critical: Count,
  high: Count,
  /** npm's `moderate`; `medium` (trivy, snyk) counts here too. */
  moderate: Count,
  low: Count,
  info: Count,
  format: z.enum(SECURITY_SUMMARY_FORMATS),
});
export type SecurityCounts = z.infer<typeof SecurityCountsSchema>;

type Tally = Record<Severity, number>;

const SEVERITY_WORDS: Readonly<Record<string, Severity>> = {
  critical: 'critical',
  high: 'high',
  moderate: 'moderate',
  medium: 'moderate',
  low: 'low',
  info: 'info',
};
const WORD = 'critical|high|moderate|medium|low|info';

const empty = (): Tally => ({ critical: 0, high: 0, moderate: 0, low: 0, info: 0 });

function add(tally: Tally, word: string, count: number): boolean {
  const severity = SEVERITY_WORDS[word.toLowerCase()];
  if (!severity) return false;
  tally[severity] += count;
  return true;
}

/**
 * `npm audit --json`, `pnpm audit --json` and `yarn audit --json`: the flat
 * `"vulnerabilities": { "info": 0, ..., "critical": 1 }` summary (npm's per-package map of
 * the same name holds objects, so it never matches). Several summaries (workspaces) add up.
 */
function jsonSummary(output: string): Tally | undefined {
  let found: Tally | undefined;
  for (const match of output.matchAll(/"vulnerabilities"\s*:\s*\{([^{}]*)\}/g)) {
    const body = match[1]!;
    if (!/"(?:critical|high)"\s*:/.test(body)) continue;
    found ??= empty();
    for (const entry of body.matchAll(/"([a-z]+)"\s*:\s*(\d+)/gi))
      add(found, entry[1]!, Number(entry[2]));
  }
  return found;
}

/**
 * npm's text summary: `found 5 vulnerabilities (1 low, 3 high, 1 critical)` (npm 6),
 * `5 vulnerabilities (1 low, 3 high, 1 critical)` (npm 7+), `1 high severity
 * vulnerability` when there is one severity, `found 0 vulnerabilities` when clean.
 */
function npmSummary(lines: readonly string[]): Tally | undefined {
  let found: Tally | undefined;
  for (const line of lines) {
    const mixed = /^\s*(?:found\s+)?\d+\s+vulnerabilit(?:y|ies)\s*\(([^)]*)\)/i.exec(line);
    const single = new RegExp(
      `^\\s*(?:found\\s+)?(\\d+)\\s+(${WORD})\\s+severity\\s+vulnerabilit(?:y|ies)\\b`,
      'i',
    ).exec(line);
    if (mixed) {
      found ??= empty();
      for (const part of mixed[1]!.matchAll(new RegExp(`(\\d+)\\s+(${WORD})\\b`, 'gi')))
        add(found, part[2]!, Number(part[1]));
    } else if (single) {
      found ??= empty();
      add(found, single[2]!, Number(single[1]));
    } else if (/^\s*found\s+0\s+vulnerabilities\b/i.test(line)) found ??= empty();
  }
  return found;
}

/** yarn classic and pnpm: `Severity: 2 Low | 3 High | 1 Critical`. */
function severityLine(lines: readonly string[]): Tally | undefined {
  let found: Tally | undefined;
  const pattern = new RegExp(`^\\s*Severity:\\s*(\\d+\\s+(?:${WORD})\\b.*)$`, 'i');
  for (const line of lines) {
    const match = pattern.exec(line);
    if (!match) continue;
    found ??= empty();
    for (const part of match[1]!.matchAll(new RegExp(`(\\d+)\\s+(${WORD})\\b`, 'gi')))
      add(found, part[2]!, Number(part[1]));
  }
  return found;
}

/**
 * Any scanner's `2 critical` / `1 high` or `CRITICAL: 2` / `High=1` (trivy's `Total: 5
 * (LOW: 1, MEDIUM: 2, HIGH: 1, CRITICAL: 1)`), summed over the lines. A number inside a
 * decimal (`CVSS 9.8 high`) or a word run on with a dash (`2 low-level`) is not a count.
 */
function genericCounts(lines: readonly string[]): Tally | undefined {
  let found: Tally | undefined;
  const countFirst = new RegExp(`(?<![\\w.])(\\d+)\\s+(${WORD})(?![\\w-])`, 'gi');
  const wordFirst = new RegExp(`(?<![\\w-])(${WORD})\\s*[:=]\\s*(\\d+)(?![\\w.])`, 'gi');
  for (const line of lines) {
    for (const match of line.matchAll(countFirst)) {
      found ??= empty();
      add(found, match[2]!, Number(match[1]));
    }
    for (const match of line.matchAll(wordFirst)) {
      found ??= empty();
      add(found, match[1]!, Number(match[2]));
    }
  }
  return found;
}

/**
 * Vulnerability counts of an output's terminal lines, from the most precise summary found:
 * npm/pnpm/yarn `--json`, npm's text summary, a `Severity:` line (yarn, pnpm), else
 * generic `N critical` / `HIGH: N` counts. Undefined when none is found.
 *
 * @example
 * vulnerabilityCounts(['8 vulnerabilities (2 moderate, 5 high, 1 critical)', ''])
 * // { critical: 1, high: 5, moderate: 2, low: 0, info: 0, format: 'npm' }
 */
export function vulnerabilityCounts(lines: readonly string[]): SecurityCounts | undefined {
  const json = jsonSummary(lines.join('\n'));
  if (json) return { ...json, format: 'json' };
  const npm = npmSummary(lines);
  if (npm) return { ...npm, format: 'npm' };
  const severity = severityLine(lines);
  if (severity) return { ...severity, format: 'severity-line' };
  const generic = genericCounts(lines);
  return generic && { ...generic, format: 'generic' };
}
