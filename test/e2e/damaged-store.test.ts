import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeOneRun, runCli } from '../support/cli.js';
import { storeStopped } from '../support/local-runs.js';

/** Bytes no LevelDB file can hold. */
const GARBAGE = 'not a leveldb file\n'.repeat(64);

/** A data dir whose DynamoDB store is damaged: each command says where, and how to recover. */
describe('CLI: a damaged local store', () => {
  let root: string;
  let stored: string;
  beforeAll(async () => {
    // A data dir with a real run in it; a second command turns LevelDB's log into tables.
    root = await mkdtemp(join(tmpdir(), 'ralph-damaged-'));
    stored = join(root, 'stored');
    await completeOneRun(stored);
    // The store opened afresh (its daemon gone) is what writes the log into tables.
    await storeStopped(stored);
    expect((await runCli(['runs', '--data-dir', stored])).exitCode).toBe(0);
    await storeStopped(stored);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A copy of the stored data dir with garbage in the DynamoDB files `pick` chooses. */
  async function damagedCopy(name: string, pick: (file: string) => boolean): Promise<string> {
    const dataDir = join(root, name);
    await cp(stored, dataDir, { recursive: true });
    const files = (await readdir(join(dataDir, 'dynamodb'))).filter(pick);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) await writeFile(join(dataDir, 'dynamodb', file), GARBAGE);
    return dataDir;
  }

  const recovery = (dataDir: string) =>
    new RegExp(
      `the local store in ${join(dataDir, 'dynamodb')} is damaged \\(.+\\): move it aside \\(\`mv ${join(dataDir, 'dynamodb')} ${join(dataDir, 'dynamodb')}.damaged\`\\).*run history.*lost.*${join(dataDir, 's3')}`,
    );

  it('names the directory and the way out when LevelDB cannot open it', async () => {
    const dataDir = await damagedCopy('manifest', (file) => /^(CURRENT|MANIFEST-)/.test(file));

    const result = await runCli(['runs', '--data-dir', dataDir]);

    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(recovery(dataDir));
    expect(result.stderr).not.toMatch(/^ralph: (IO error|Corruption)/);
  });

  it('names the directory and the way out when a table file is damaged', async () => {
    const dataDir = await damagedCopy('tables', (file) => file.endsWith('.ldb'));

    const result = await runCli(['runs', '--data-dir', dataDir]);

    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(recovery(dataDir));
  });

  it('starts an empty store once the damaged one is moved aside as told', async () => {
    const dataDir = await damagedCopy('moved', (file) => file.endsWith('.ldb'));
    await cp(join(dataDir, 'dynamodb'), join(dataDir, 'dynamodb.damaged'), { recursive: true });
    await rm(join(dataDir, 'dynamodb'), { recursive: true });

    const result = await runCli(['runs', '--data-dir', dataDir]);

    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/no runs yet/i);
  });
});
