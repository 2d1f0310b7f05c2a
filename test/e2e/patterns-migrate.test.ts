import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { patternsMigrateCommand } from '../../bin/cli/commands/patterns-migrate.js';
import { createOutput } from '../../bin/cli/output.js';
import { exitCodeFor } from '../../bin/cli/errors.js';
import { EXIT } from '../../bin/cli/exit-codes.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import type { MigrationReport } from '../../bin/cli/patterns-migration/report.js';

const FIXTURE = new URL('../fixtures/patterns-v1-471.json', import.meta.url);
const NOW = new Date('2026-02-01T09:00:00.000Z');

/** An Output whose text the test can read. */
function captured(json: boolean) {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { output: createOutput(json, stream), text: () => text };
}

/** What `main` would exit with: the command's code, or the code its error maps to. */
async function exitOf(run: () => Promise<number>): Promise<{ code: number; error?: Error }> {
  try {
    return { code: await run() };
  } catch (error) {
    return { code: exitCodeFor(error), error: error as Error };
  }
}

describe('Command: ralph patterns migrate', () => {
  let dir: string;
  let input: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ralph-patterns-'));
    input = join(dir, 'learned_patterns.json');
    await writeFile(input, await readFile(FIXTURE));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes <file>.v2.json, a valid v2 pattern set, and reports the counts (exit 0)', async () => {
    // Prepare
    const { output, text } = captured(false);

    // Act
    const { code } = await exitOf(() => patternsMigrateCommand(input, { now: NOW }, output));

    // Assess
    expect(code).toBe(EXIT.ok);
    const set = PatternSetSchema.parse(JSON.parse(await readFile(`${input}.v2.json`, 'utf8')));
    expect(set).toMatchObject({ schemaVersion: '2.0', version: 1, createdAt: NOW.toISOString() });
    expect(set.patterns).toHaveLength(478);
    expect(text()).toContain(`${input} → ${input}.v2.json: pattern set v1, 478 patterns`);
    expect(text()).toContain(
      'in:  471 patterns (259 good, 212 bad), 17 scoping rules, 6 service insights',
    );
    expect(text()).toContain(
      'out: 478 patterns (263 good, 215 bad), 8 path prefixes for 5 services, 6 entries placed elsewhere (6 carried verbatim under legacy)',
    );
    expect(text()).toContain(
      '✓ 471 patterns + 17 scoping rules + 6 service insights in = 484 out + 4 skipped + 6 merged',
    );
    expect(text()).toMatch(/^ {2}patterns\[133\]: empty description/m);
    expect(text()).toMatch(
      /^ {2}patterns\[57\] → p_013: exact duplicate of patterns\[12\] \(p_013\)$/m,
    );
    expect(text()).toMatch(/^ {2}tack +service\/, client\/$/m);
    expect(await readdir(dir)).toEqual(['learned_patterns.json', 'learned_patterns.json.v2.json']);
  });

  it('prints only the report as JSON under --json, and writes where --out says', async () => {
    // Prepare
    const { output, text } = captured(true);
    const out = join(dir, 'patterns.v2.json');

    // Act
    const code = await patternsMigrateCommand(input, { out, json: true, now: NOW }, output);

    // Assess
    expect(code).toBe(EXIT.ok);
    const printed = JSON.parse(text()) as { file: string; out: string; report: MigrationReport };
    expect(printed).toMatchObject({ file: input, out });
    expect(printed.report.totals.equation).toBe(
      '471 patterns + 17 scoping rules + 6 service insights in = 484 out + 4 skipped + 6 merged',
    );
    expect(printed.report.skipped).toHaveLength(4);
    expect(PatternSetSchema.safeParse(JSON.parse(await readFile(out, 'utf8'))).success).toBe(true);
  });

  it('refuses to overwrite an existing file (exit 2) unless --force', async () => {
    // Prepare
    const out = join(dir, 'existing.json');
    await writeFile(out, 'keep me');

    // Act
    const refused = await exitOf(() =>
      patternsMigrateCommand(input, { out, now: NOW }, captured(false).output),
    );

    // Assess
    expect(refused.code).toBe(EXIT.invalidInput);
    expect(refused.error?.message).toBe(`${out} already exists; pass --force to overwrite it`);
    expect(await readFile(out, 'utf8')).toBe('keep me');

    // Act: again, with --force
    const forced = await exitOf(() =>
      patternsMigrateCommand(input, { out, force: true, now: NOW }, captured(false).output),
    );

    // Assess
    expect(forced.code).toBe(EXIT.ok);
    expect(PatternSetSchema.parse(JSON.parse(await readFile(out, 'utf8'))).patterns).toHaveLength(
      478,
    );
    expect(await readdir(dir)).toEqual(['existing.json', 'learned_patterns.json']);
  });

  it('refuses to write over its own input, even with --force', async () => {
    const result = await exitOf(() =>
      patternsMigrateCommand(input, { out: input, force: true, now: NOW }, captured(false).output),
    );
    expect(result.code).toBe(EXIT.invalidInput);
    expect(JSON.parse(await readFile(input, 'utf8'))).toMatchObject({ version: '1.0' });
  });

  it('refuses a malformed file with the zod path (exit 2) and writes nothing', async () => {
    // Prepare
    const broken = JSON.parse(await readFile(input, 'utf8')) as { patterns: { type: string }[] };
    broken.patterns[12]!.type = 'great_pattern';
    await writeFile(input, JSON.stringify(broken));

    // Act
    const result = await exitOf(() =>
      patternsMigrateCommand(input, { now: NOW }, captured(false).output),
    );

    // Assess
    expect(result.code).toBe(EXIT.invalidInput);
    expect(result.error).toBeInstanceOf(InvalidInputError);
    expect((result.error as InvalidInputError).issues).toEqual([
      'patterns[12].type: Invalid option: expected one of "good_pattern"|"bad_pattern"',
    ]);
    expect(await readdir(dir)).toEqual(['learned_patterns.json']);
  });

  it('refuses a file that is not JSON, or not there (exit 2)', async () => {
    await writeFile(input, '{ "version": "1.0", ');
    const notJson = await exitOf(() => patternsMigrateCommand(input, {}, captured(false).output));
    expect(notJson.code).toBe(EXIT.invalidInput);
    expect(notJson.error?.message).toMatch(/not valid JSON/);

    const missing = await exitOf(() =>
      patternsMigrateCommand(join(dir, 'nope.json'), {}, captured(false).output),
    );
    expect(missing.code).toBe(EXIT.invalidInput);
    expect(missing.error?.message).toMatch(/^cannot read /);
    expect(await readdir(dir)).toEqual(['learned_patterns.json']);
  });

  it('reports an unwritable target as exit 2, leaving no temporary file', async () => {
    const out = join(dir, 'no-such-dir', 'patterns.v2.json');
    const result = await exitOf(() =>
      patternsMigrateCommand(input, { out }, captured(false).output),
    );
    expect(result.code).toBe(EXIT.invalidInput);
    expect(result.error?.message).toMatch(/^cannot write /);
    expect(await readdir(dir)).toEqual(['learned_patterns.json']);
  });
});
