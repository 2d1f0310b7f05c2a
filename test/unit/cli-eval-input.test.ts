import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvalInput } from '../../bin/cli/eval-input.js';
import { CliError, exitCodeFor } from '../../bin/cli/errors.js';
import { EXIT } from '../../bin/cli/exit-codes.js';

describe('Function: readEvalInput', () => {
  let scratch: string;
  /** A file in the scratch folder, written with `text`; its path. */
  const file = async (name: string, text: string) => {
    const path = join(scratch, name);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, text);
    return path;
  };
  /** The message of the refusal, checked to be bad input (exit code 2). */
  const refusal = async (path: string) => {
    const error = await readEvalInput(path).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Error);
    expect(exitCodeFor(error)).toBe(EXIT.invalidInput);
    return (error as Error).message;
  };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-eval-input-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('reads a folder: .json artefacts, and .txt/.md files of one sentence named by the file', async () => {
    // Prepare
    await file(
      'folder/a.json',
      JSON.stringify({ id: 'story-a', title: 'T', description: 'D', acceptance_criteria: [] }),
    );
    await file('folder/b.txt', 'As a user, I want to export my data.\n');
    await file('folder/c.md', '\n  As an admin, I want to see (AVs).  \n\n');
    await file('folder/notes.yaml', 'ignored: true\n');

    // Act
    const input = await readEvalInput(join(scratch, 'folder'));

    // Assess
    expect(input.kind).toBe('folder');
    expect(input.artefacts.map((artefact) => artefact.id)).toEqual(['story-a', 'b', 'c']);
    expect(input.artefacts[1]).toEqual({
      kind: 'document',
      id: 'b',
      documentType: 'user_story',
      content: { description: 'As a user, I want to export my data.' },
    });
    expect(input.artefacts[2]).toMatchObject({
      content: { description: 'As an admin, I want to see (AVs).' },
    });
  });

  it("reads Ralph's prd.json: one document per story, only the fields the story gives", async () => {
    const path = join(scratch, 'prd.json');
    await copyFile('test/fixtures/ralph/prd.json.example', path);

    const input = await readEvalInput(path);

    expect(input.kind).toBe('prd.json');
    expect(input.artefacts.map((artefact) => artefact.id)).toEqual([
      'US-001',
      'US-002',
      'US-003',
      'US-004',
    ]);
    expect(input.artefacts[1]).toEqual({
      kind: 'document',
      id: 'US-002',
      documentType: 'user_story',
      content: {
        title: 'Display priority indicator on task cards',
        description: 'As a user, I want to see task priority at a glance.',
        acceptance_criteria: [
          'Each task card shows colored priority badge (red=high, yellow=medium, gray=low)',
          'Priority visible without hovering or clicking',
          'Typecheck passes',
          'Verify in browser using dev-browser skill',
        ],
      },
    });
  });

  it('reads a labelled CSV: its story column, ids from its id column', async () => {
    const path = await file(
      'labels.csv',
      'ID,User story,atomic\r\nA1,"As a driver, I want A and B.",conjunctions\r\n',
    );
    const input = await readEvalInput(path);
    expect(input.kind).toBe('csv');
    expect(input.artefacts).toEqual([
      {
        kind: 'document',
        id: 'A1',
        documentType: 'user_story',
        content: { description: 'As a driver, I want A and B.' },
      },
    ]);
  });

  it('reads any other file as one story per line, skipping blank lines and # comments', async () => {
    const path = await file(
      'backlog.txt',
      '# the backlog\nAs a user, I want x.\n\n  # later\nAs an admin, I want y.\n',
    );
    const input = await readEvalInput(path);
    expect(input.kind).toBe('lines');
    expect(
      input.artefacts.map((artefact) => [
        artefact.id,
        artefact.kind === 'document' && artefact.content,
      ]),
    ).toEqual([
      ['line-2', { description: 'As a user, I want x.' }],
      ['line-5', { description: 'As an admin, I want y.' }],
    ]);
  });

  it('refuses a path that is not there, saying what was expected', async () => {
    const message = await refusal(join(scratch, 'missing.csv'));
    expect(message).toMatch(/^cannot read .*missing\.csv: .*; expected a folder of stories/);
  });

  it('refuses a .json that is not a prd.json, and a prd.json that is invalid', async () => {
    expect(await refusal(await file('story.json', '{"id":"s"}'))).toMatch(
      /story\.json is not a Ralph prd\.json \(it has no "userStories"\)/,
    );
    expect(await refusal(await file('bad-prd.json', '{"userStories":[{"id":"US-1"}]}'))).toMatch(
      /bad-prd\.json is invalid/,
    );
  });

  it('refuses a story file of more than one line, an empty folder, and a file without a story', async () => {
    await file('two/a.txt', 'As a user, I want x.\nAs a user, I want y.\n');
    expect(await refusal(join(scratch, 'two'))).toMatch(
      /a\.txt holds 2 non-blank lines: a \.txt or \.md story file holds one story sentence/,
    );
    await mkdir(join(scratch, 'empty'));
    expect(await refusal(join(scratch, 'empty'))).toMatch(
      /no \.json, \.txt or \.md story files in/,
    );
    expect(await refusal(await file('comments.txt', '# nothing yet\n\n'))).toMatch(
      /comments\.txt holds no story/,
    );
  });

  it('refuses a CSV without a story column, and two stories with one id', async () => {
    expect(await refusal(await file('ids.csv', 'id,atomic\nA1,ok\n'))).toMatch(
      /has no story column to score/,
    );
    await file('dup/x.txt', 'As a user, I want x.\n');
    await file(
      'dup/y.json',
      JSON.stringify({ id: 'x', title: '', description: '', acceptance_criteria: [] }),
    );
    const message = await refusal(join(scratch, 'dup'));
    expect(message).toBe(`two artefacts in ${join(scratch, 'dup')} share the id "x"`);
  });

  it('refuses with a CliError for its own checks', async () => {
    await expect(readEvalInput(join(scratch, 'nope'))).rejects.toBeInstanceOf(CliError);
  });
});
