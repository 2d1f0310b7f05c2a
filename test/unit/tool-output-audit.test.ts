import { describe, expect, it } from 'vitest';
import { vulnerabilityCounts } from '../../lambdas/core/tool-output/audit.js';
import { terminalLines } from '../../lambdas/core/tool-output/lines.js';

const ESC = '\u001b';

const NPM7_TEXT = `# npm audit report

lodash  <4.17.21
Severity: high
Command Injection in lodash - https://github.com/advisories/GHSA-35jh-r3h4-6jhm
fix available via \`npm audit fix\`
node_modules/lodash

minimist  <0.2.4
Severity: critical
Prototype Pollution in minimist - https://github.com/advisories/GHSA-xvch-5gv4-984h

8 vulnerabilities (2 moderate, 5 high, 1 critical)

To address all issues, run:
  npm audit fix
`;

const NPM6_TEXT = `
                       === npm audit security report ===

┌───────────────┬──────────────────────────────────────────────────────────────┐
│ High          │ Prototype Pollution                                          │
└───────────────┴──────────────────────────────────────────────────────────────┘
found 3 vulnerabilities (1 low, 1 moderate, 1 high) in 912 scanned packages
  run \`npm audit fix\` to fix 3 of them.
`;

const NPM_JSON = JSON.stringify(
  {
    auditReportVersion: 2,
    vulnerabilities: {
      minimist: { name: 'minimist', severity: 'critical', via: [], effects: [] },
    },
    metadata: {
      vulnerabilities: { info: 0, low: 1, moderate: 0, high: 2, critical: 1, total: 4 },
      dependencies: { prod: 10, dev: 20, total: 30 },
    },
  },
  null,
  2,
);

/** The counts of an output as the dispatcher reads it: from its terminal lines. */
const countsOf = (output: string) => vulnerabilityCounts(terminalLines(output));

describe('Function: vulnerabilityCounts', () => {
  it('reads npm 7+ text: the summary line, not the per-advisory severities', () => {
    expect(countsOf(NPM7_TEXT)).toEqual({
      critical: 1,
      high: 5,
      moderate: 2,
      low: 0,
      info: 0,
      format: 'npm',
    });
  });

  it('reads npm 6 text', () => {
    expect(countsOf(NPM6_TEXT)).toMatchObject({
      critical: 0,
      high: 1,
      moderate: 1,
      low: 1,
      format: 'npm',
    });
  });

  it.each([
    ['1 critical severity vulnerability', { critical: 1, high: 0 }],
    ['found 2 high severity vulnerabilities in 10 scanned packages', { critical: 0, high: 2 }],
    ['found 0 vulnerabilities', { critical: 0, high: 0 }],
  ])('reads npm text with one severity: %s', (line, counts) => {
    expect(countsOf(`\n${line}\n`)).toMatchObject({ ...counts, format: 'npm' });
  });

  it('reads the npm --json summary, not the per-package map', () => {
    expect(countsOf(NPM_JSON)).toEqual({
      critical: 1,
      high: 2,
      moderate: 0,
      low: 1,
      info: 0,
      format: 'json',
    });
  });

  it('reads the --json summary from a tail cut inside the report', () => {
    const tail = NPM_JSON.slice(NPM_JSON.indexOf('"metadata"'));
    expect(countsOf(tail)).toMatchObject({ critical: 1, high: 2, format: 'json' });
  });

  it('reads a clean npm 7+ --json report as zero', () => {
    const clean = JSON.stringify({
      vulnerabilities: {},
      metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0 } },
    });
    expect(countsOf(clean)).toMatchObject({ critical: 0, high: 0, format: 'json' });
  });

  it('reads the yarn and pnpm Severity line', () => {
    expect(countsOf('6 vulnerabilities found\nSeverity: 1 low | 3 moderate | 2 high\n')).toEqual({
      critical: 0,
      high: 2,
      moderate: 3,
      low: 1,
      info: 0,
      format: 'severity-line',
    });
    expect(countsOf('Severity: 2 Low | 1 Critical\n')).toMatchObject({
      critical: 1,
      low: 2,
    });
  });

  it('reads generic counts: "N critical" and trivy\'s "HIGH: N", medium as moderate', () => {
    expect(countsOf('Total: 5 (UNKNOWN: 0, LOW: 1, MEDIUM: 2, HIGH: 1, CRITICAL: 1)\n')).toEqual({
      critical: 1,
      high: 1,
      moderate: 2,
      low: 1,
      info: 0,
      format: 'generic',
    });
    expect(countsOf('scan done: 0 critical, 3 high\n')).toMatchObject({
      critical: 0,
      high: 3,
      format: 'generic',
    });
  });

  it('sums generic counts over several targets', () => {
    const output =
      'app.lock\nTotal: 1 (HIGH: 1, CRITICAL: 0)\nweb.lock\nTotal: 2 (HIGH: 1, CRITICAL: 1)\n';
    expect(countsOf(output)).toMatchObject({ critical: 1, high: 2 });
  });

  it('ignores colour codes', () => {
    expect(
      countsOf(`${ESC}[1m3 vulnerabilities (${ESC}[31m3 critical${ESC}[39m)${ESC}[22m\n`),
    ).toMatchObject({ critical: 3, format: 'npm' });
  });

  it.each([
    ['no summary at all', 'Scanning 120 packages...\nDone.\n'],
    ['a severity word without a count', 'Severity: high\n'],
    ['a decimal score', 'CVSS 9.8 high\n'],
    ['a dashed word', 'found 2 low-level helpers\n'],
    ['empty output', ''],
  ])('gives undefined for %s', (_, output) => {
    expect(countsOf(output)).toBeUndefined();
  });
});
