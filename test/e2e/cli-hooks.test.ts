import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ErrorEvent } from '../../lambdas/core/schemas/error-event.js';
import { jsonOf, ralphProcess, useCliScratch } from '../support/cli.js';
import { HOOK_FIXTURES } from '../support/hook-fixtures.js';

const scratch = useCliScratch('ralph-hooks-');

/** `ralph hooks parse ...` on a recorded fixture. */
function parse(source: string, fixture: string, ...more: string[]) {
  return scratch.ralph('hooks', 'parse', source, join(HOOK_FIXTURES, fixture), ...more);
}

interface ParsedJson {
  source: string;
  kind: 'events' | 'ignored';
  events?: ErrorEvent[];
  reason?: string;
}

interface ErrorJson {
  error: { message: string; issues?: string[]; exitCode: number };
}

describe('Command: ralph hooks parse', () => {
  it.each([
    ['sentry', 'sentry/issue.created.json', ['--resource', 'issue'], 'issue:1170820242'],
    [
      'sentry',
      'sentry/event_alert.triggered.json',
      ['--resource', 'event_alert'],
      'issue:1117540176',
    ],
    ['sentry', 'sentry/error.created.json', ['--resource', 'error'], 'issue:1170820242'],
    [
      'sentry',
      'sentry/metric_alert.critical.json',
      ['--resource', 'metric_alert'],
      'metric-alert:7',
    ],
    ['newrelic', 'newrelic/default-template.json', [], 'condition:Checkout errors@checkout-api'],
    [
      'cloudwatch',
      'cloudwatch/eventbridge-alarm.json',
      [],
      'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh',
    ],
    [
      'cloudwatch',
      'cloudwatch/sns-alarm.json',
      [],
      'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh',
    ],
  ])('prints the error event of %s %s as JSON', async (source, fixture, more, fingerprint) => {
    const result = await parse(source, fixture, ...more, '--json');

    expect(result.exitCode, result.stderr).toBe(0);
    const parsed = jsonOf<ParsedJson>(result);
    expect(parsed).toMatchObject({ source, kind: 'events' });
    expect(parsed.events?.map((event) => event.fingerprint)).toEqual([fingerprint]);
  });

  it('prints a readable block: title, source, level, fingerprint, location, counts, frames', async () => {
    const issue = await parse('sentry', 'sentry/issue.created.json', '--resource', 'issue');
    const alert = await parse(
      'sentry',
      'sentry/event_alert.triggered.json',
      '--resource',
      'event_alert',
    );

    expect(issue.exitCode, issue.stderr).toBe(0);
    expect(issue.stdout).toContain('ReferenceError: blooopy is not defined\n');
    expect(issue.stdout).toMatch(/^ {2}source +sentry issue, created$/m);
    expect(issue.stdout).toMatch(/^ {2}level +error$/m);
    expect(issue.stdout).toMatch(/^ {2}fingerprint +issue:1170820242$/m);
    expect(issue.stdout).toMatch(/^ {2}location +\?\(runner\)$/m);
    expect(issue.stdout).toMatch(/^ {2}counts +seen 1×, 1 user affected$/m);
    expect(issue.stdout).toMatch(/^ {2}route +Sentry project front-end or 1$/m);
    expect(alert.stdout).toMatch(/^ {2}frames +innermost first, 3 of 3/m);
    // The throw first: Sentry lists it last.
    expect(alert.stdout).toMatch(
      /frames.*\n +<anonymous>:3:5\n +\/js\/prod\/runner-4\.1\.7\.min\.js:1:13924\n/,
    );
  });

  it.each([
    [
      'sentry',
      'sentry/installation.created.json',
      ['--resource', 'installation'],
      /installation created/,
    ],
    ['cloudwatch', 'cloudwatch/eventbridge-ok.json', [], /went to OK/],
  ])('says why %s %s is no error, and exits 0', async (source, fixture, more, reason) => {
    const text = await parse(source, fixture, ...more);
    const json = await parse(source, fixture, ...more, '--json');

    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^ignored \\(${source}\\): .*${reason.source}`));
    expect(jsonOf<ParsedJson>(json)).toMatchObject({
      kind: 'ignored',
      reason: expect.stringMatching(reason),
    });
  });

  it('exits 2 on malformed JSON, naming the problem', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-hooks-body-'));
    const file = join(dir, 'malformed.json');
    await writeFile(file, '{"id": ');

    const result = await scratch.ralph('hooks', 'parse', 'newrelic', file, '--json');
    await rm(dir, { recursive: true, force: true });

    expect(result.exitCode).toBe(2);
    expect(jsonOf<ErrorJson>(result).error.issues).toEqual([
      expect.stringMatching(/^\(root\): not valid JSON/),
    ]);
  });

  it('exits 2 on a payload of the wrong shape, with its zod paths', async () => {
    const result = await parse('sentry', 'newrelic/default-template.json', '--resource', 'issue');

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/Sentry issue delivery is invalid:\n {2}action: .*\n {2}data: /);
  });

  it('exits 2 on an unknown Sentry resource, naming the known ones', async () => {
    const result = await parse('sentry', 'sentry/issue.created.json', '--resource', 'seer');

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'unknown resource "seer"; known: installation, event_alert, issue, metric_alert, error, comment',
    );
  });

  it('exits 2 when sentry lacks --resource, or another source has one', async () => {
    const missing = await parse('sentry', 'sentry/issue.created.json');
    const extra = await parse('newrelic', 'newrelic/default-template.json', '--resource', 'issue');

    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/pass --resource/);
    expect(extra.exitCode).toBe(2);
    expect(extra.stderr).toMatch(/a newrelic delivery has none/);
  });

  it('exits 2 on an unknown source or an unreadable file', async () => {
    const source = await parse('datadog', 'newrelic/default-template.json');
    const file = await parse('newrelic', 'newrelic/no-such-file.json');

    expect(source.exitCode).toBe(2);
    expect(source.stderr).toMatch(/Allowed choices are sentry, newrelic, cloudwatch/);
    expect(file.exitCode).toBe(2);
    expect(file.stderr).toMatch(/cannot read .*no-such-file\.json/);
  });

  it('starts and writes nothing: the data dir stays empty', async () => {
    await parse('cloudwatch', 'cloudwatch/eventbridge-alarm.json');

    expect(await readdir(scratch.dataDir)).toEqual([]);
  });

  it('works as a process of its own: a block on stdout, exit 2 and the reason on a bad body', async () => {
    const good = await ralphProcess([
      'hooks',
      'parse',
      'cloudwatch',
      join(HOOK_FIXTURES, 'cloudwatch/sns-alarm.json'),
    ]);
    const bad = await ralphProcess([
      'hooks',
      'parse',
      'cloudwatch',
      join(HOOK_FIXTURES, 'newrelic/default-template.json'),
    ]);

    expect(good.exitCode, good.all).toBe(0);
    expect(good.stdout).toMatch(
      /^ServerCpuTooHigh: .*\n {2}source +cloudwatch sns, ALARM → triggered$/m,
    );
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/not a CloudWatch alarm delivery/);
  });
});
