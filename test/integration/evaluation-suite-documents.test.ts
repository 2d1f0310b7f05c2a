import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SUITE_OUTPUT_ENV } from '../../agent/checks/evaluation-suite.js';
import { exists } from '../../agent/working-copy/optional-files.js';
import { git } from '../support/git-repo.js';
import {
  copying,
  runSuite,
  status,
  story,
  suite,
  useSuiteScratch,
} from '../support/suite-fixtures.js';

const { repository, fixtures } = useSuiteScratch();

describe('Function: runEvaluationSuite — the documents', () => {
  it('runs the command in the repository and returns its documents, sorted by file name', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({
      'b.json': story('S-2', { services: ['tack'], extra: 'kept' }),
      'a.json': story('S-1'),
      'notes.txt': 'not a document',
    });
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'runner-secret');
    const command = [
      copying(from),
      `printf '%s|%s|%s|%s' "$PWD" "$${SUITE_OUTPUT_ENV}" "$CI" "\${AWS_SECRET_ACCESS_KEY:-withheld}" > "${from}/seen"`,
      'echo done',
    ].join(' && ');

    // Act
    const run = await runSuite({ dir: repo, suite: suite({ command }) });

    // Assess
    expect(run).toMatchObject({ status: 'ok', exitCode: 0, problems: [], outputTail: 'done' });
    expect(run.documents).toEqual([
      {
        kind: 'document',
        id: 'S-1',
        documentType: 'user_story',
        content: expect.objectContaining({ id: 'S-1', services: [], source_conversations: [] }),
      },
      {
        kind: 'document',
        id: 'S-2',
        documentType: 'user_story',
        content: expect.objectContaining({ services: ['tack'], extra: 'kept' }),
      },
    ]);
    const [cwd, outputDir, ci, secret] = (await readFile(join(from, 'seen'), 'utf8')).split('|');
    expect(cwd).toBe(await git(repo, 'rev-parse', '--show-toplevel'));
    expect(outputDir).toBe(join(cwd ?? '', '.ralph-eval'));
    expect(ci).toBe('true');
    expect(secret).toBe('withheld');
    expect(await exists(join(repo, '.ralph-eval'))).toBe(false);
    expect(await status(repo)).toBe('');
  });

  it('refuses invalid JSON and invalid stories with the file and the path, and keeps the rest', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({
      '1-good.json': story('S-1'),
      '2-broken.json': '{"id": "S-2",',
      '3-no-criteria.json': story('S-3', { acceptance_criteria: 'It works' }),
      '4-bad-service.json': story('S-4', { services: ['ok', 7] }),
      '5-good.json': story('S-5'),
    });

    // Act
    const run = await runSuite({ dir: repo, suite: suite({ command: copying(from) }) });

    // Assess
    expect(run.status).toBe('ok');
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1', 'S-5']);
    expect(run.problems).toHaveLength(3);
    expect(run.problems[0]).toMatch(/^2-broken\.json: \(root\): not valid JSON \(.+\)$/);
    expect(run.problems[1]).toMatch(/^3-no-criteria\.json: acceptance_criteria: expected array/);
    expect(run.problems[2]).toMatch(/^4-bad-service\.json: services\[1\]: expected string/);
  });

  it("names a document by its id when that is a safe id, else by its file's name", async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({
      'by-field.json': story('S-9'),
      'by-file.json': story('has spaces'),
      'also-by-file.json': story('../escape'),
      'no good.json': story('no good either'),
    });

    // Act
    const run = await runSuite({ dir: repo, suite: suite({ command: copying(from) }) });

    // Assess
    expect(run.documents.map(({ id }) => id)).toEqual(['also-by-file', 'S-9', 'by-file']);
    expect(run.documents[2]?.content).toMatchObject({ id: 'has spaces' });
    expect(run.problems).toEqual([
      "no good.json: id: neither the document's id nor the file name is a safe artefact id",
    ]);
  });

  it('keeps any JSON for a document type without a known shape, named by the file', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({ 'list.json': '[1, 2]', 'summary.json': '{"id": 3}' });

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command: copying(from), documentType: 'summary' }),
    });

    // Assess
    expect(run.problems).toEqual([]);
    expect(run.documents).toEqual([
      { kind: 'document', id: 'list', documentType: 'summary', content: [1, 2] },
      { kind: 'document', id: 'summary', documentType: 'summary', content: { id: 3 } },
    ]);
  });

  it('refuses a document whose id is already taken, naming the file that has it', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({
      // First by name (code point order): its id comes from the file name.
      'S-1.json': story('S 1', { title: 'first' }),
      'a.json': story('S-1', { title: 'second' }),
      'b.json': story('S-1', { title: 'third' }),
      'c.json': story('S-2'),
    });

    // Act
    const run = await runSuite({ dir: repo, suite: suite({ command: copying(from) }) });

    // Assess
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1', 'S-2']);
    expect(run.documents[0]?.content).toMatchObject({ title: 'first' });
    expect(run.problems).toEqual([
      'a.json: id: "S-1" is already the id of S-1.json; refused',
      'b.json: id: "S-1" is already the id of S-1.json; refused',
    ]);
  });

  it('keeps exactly maxDocuments documents, and fails one more without keeping any', async () => {
    // Prepare
    const repo = await repository();
    const two = await fixtures({ 'a.json': story('S-1'), 'b.json': story('S-2') });
    const three = await fixtures({
      'a.json': story('S-1'),
      'b.json': story('S-2'),
      'c.json': story('S-3'),
    });

    // Act
    const atLimit = await runSuite({
      dir: repo,
      suite: suite({ command: copying(two), maxDocuments: 2 }),
    });
    const overLimit = await runSuite({
      dir: repo,
      suite: suite({ command: copying(three), maxDocuments: 2 }),
    });

    // Assess
    expect(atLimit).toMatchObject({ status: 'ok', problems: [] });
    expect(atLimit.documents).toHaveLength(2);
    expect(overLimit).toMatchObject({ status: 'failed', documents: [], exitCode: 0 });
    expect(overLimit.problems).toEqual([
      'the suite wrote 3 documents, more than maxDocuments (2); none was kept',
    ]);
    expect(await status(repo)).toBe('');
  });

  it('refuses a document larger than maxDocumentBytes and reads one exactly that size', async () => {
    // Prepare
    const repo = await repository();
    const text = story('S-1');
    // One byte more: the same length of id, and a trailing space.
    const from = await fixtures({ 'a.json': text, 'b.json': `${story('S-2')} ` });
    const limit = Buffer.byteLength(text);

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command: copying(from) }),
      maxDocumentBytes: limit,
    });

    // Assess
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1']);
    expect(run.problems).toEqual([`b.json: (root): ${limit + 1} bytes, more than ${limit}`]);
  });
});
