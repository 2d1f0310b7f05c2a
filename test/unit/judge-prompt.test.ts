import { describe, expect, it } from 'vitest';
import {
  ARTEFACT_LINE,
  JUDGE_SYSTEM_PROMPT,
  PROMPT_LIMITS,
  buildCorrectionPrompt,
  buildJudgePrompt,
  fence,
} from '../../lambdas/core/judge/prompt.js';
import { CHANGE_RUBRIC, USER_STORY_RUBRIC, rubricFor } from '../../lambdas/core/judge/rubrics.js';
import type { ChangeArtefact, DocumentArtefact } from '../../lambdas/core/schemas/evaluation.js';
import { STORY_LEVEL_CRITERIA } from '../../lambdas/core/schemas/qus.js';

const story: DocumentArtefact = {
  kind: 'document',
  id: 'story_1',
  documentType: 'user_story',
  content: {
    id: 'story_1',
    title: 'Export invoices as CSV',
    description: 'As an accountant I am frustrated when I copy invoices by hand.',
    acceptance_criteria: ['Export downloads a CSV', 'The CSV has one row per invoice'],
    technical_area: 'packages/billing',
    services: ['billing'],
    source_conversations: [],
  },
};

function change(overrides: Partial<ChangeArtefact> = {}): ChangeArtefact {
  return {
    kind: 'change',
    id: 'US-001',
    story: {
      id: 'US-001',
      title: 'Add CSV export',
      description: 'Accountants export invoices.',
      acceptanceCriteria: ['Export returns a CSV file'],
      priority: 1,
      passes: false,
    },
    diff: 'diff --git a/src/export.ts b/src/export.ts\n+export const csv = true;\n',
    gates: [
      {
        name: 'test',
        blocking: true,
        passed: false,
        exitCode: 1,
        timedOut: false,
        durationMs: 1_200,
        outputTail: 'FAIL export.test.ts',
      },
    ],
    transcriptSummary: 'Added the export function.',
    filesChanged: ['src/export.ts'],
    ...overrides,
  };
}

describe('Function: rubricFor', () => {
  it('picks the rubric of the artefact kind and document type', () => {
    expect(rubricFor(story)).toBe(USER_STORY_RUBRIC);
    expect(rubricFor(change())).toBe(CHANGE_RUBRIC);
    expect(rubricFor({ ...story, documentType: 'release_note' }).id).toBe('document:release_note');
  });
});

describe('Function: buildJudgePrompt', () => {
  it('asks about a user story on the QUS criteria one story shows, and how they weigh', () => {
    // Act
    const prompt = buildJudgePrompt(story);

    // Assess
    for (const name of [
      'QUS quality',
      'clear user problem',
      'acceptance criteria',
      'technical specificity',
      'scope',
    ])
      expect(prompt.user).toContain(`. ${name}: `);
    for (const criterion of STORY_LEVEL_CRITERIA) expect(prompt.user).toContain(`- ${criterion}: `);
    expect(prompt.user).not.toContain('- uniform: ');
    expect(prompt.user).not.toContain('- unique: ');
    expect(prompt.user).toContain('uniform and unique compare stories across a backlog');
    expect(prompt.user).toContain('two syntactic defects scores 2.5 or less');
    expect(prompt.user).toContain('A story of one sentence has none, which is no defect in itself');
    expect(prompt.rubric.id).toBe('document:user_story');
    expect(prompt.user).toContain('5 — ready to implement');
  });

  it('asks for a verdict with its evidence on each QUS criterion of a story, not of a change', () => {
    const storyPrompt = buildJudgePrompt(story).user;
    const changePrompt = buildJudgePrompt(change()).user;
    expect(storyPrompt).toContain('Give "criteria" one entry for each of the 7 QUS criteria');
    expect(storyPrompt).toMatch(
      /"criteria": \[\{"criterion": "<one of: well-formed, atomic, minimal, conceptually-sound, problem-oriented, unambiguous, full-sentence>", "verdict": "pass" or "defect", "evidence": "<for a defect, the words of the story/,
    );
    expect(changePrompt).not.toContain('"criteria"');
  });

  it('shows the story document as JSON under a line naming the artefact', () => {
    // Act
    const { user } = buildJudgePrompt(story);

    // Assess
    expect(ARTEFACT_LINE.exec(user)?.slice(1)).toEqual(['document', 'user_story', 'story_1']);
    expect(user).toContain('```json\n{\n  "id": "story_1"');
    expect(user).toContain('"As an accountant I am frustrated when I copy invoices by hand."');
    expect(user).not.toContain('does not have the fields of a user story');
  });

  it('asks for the structured answer, and the system prompt for JSON only', () => {
    const { system, user } = buildJudgePrompt(story);
    expect(system).toBe(JUDGE_SYSTEM_PROMPT);
    expect(system).toContain('one JSON object and nothing else');
    expect(user).toMatch(
      /\{"gestalt": <number from 1 to 5>, "reasoning": .*"strengths": .*"weaknesses": .*"criteria": .*\}$/,
    );
  });

  it('says when a user-story document lacks the fields of one', () => {
    const { user } = buildJudgePrompt({ ...story, content: { text: 'just a note' } });
    expect(user).toContain('does not have the fields of a user story');
  });

  it('shows a document of another type with the generic rubric, text as text', () => {
    const { user, rubric } = buildJudgePrompt({
      kind: 'document',
      id: 'notes',
      documentType: 'release_note',
      content: 'Version 2 adds CSV export.',
    });
    expect(rubric.criteria.map((criterion) => criterion.name)).toContain('fit for purpose');
    expect(user).toContain('Artefact: kind=document type=release_note id=notes');
    expect(user).toContain('```text\nVersion 2 adds CSV export.\n```');
  });

  it('asks about a change: story, criteria, gates, files, summary and diff', () => {
    // Act
    const { user, rubric } = buildJudgePrompt(change());

    // Assess
    expect(rubric).toBe(CHANGE_RUBRIC);
    for (const name of ['implements the story', 'tests', 'gate results', 'scope'])
      expect(user).toContain(`. ${name}: `);
    expect(ARTEFACT_LINE.exec(user)?.slice(1)).toEqual(['change', undefined, 'US-001']);
    expect(user).toContain('"acceptanceCriteria": [\n    "Export returns a CSV file"\n  ]');
    expect(user).toContain('"passed": false');
    expect(user).toContain('"outputTail": "FAIL export.test.ts"');
    expect(user).toContain('## Files changed (1)\n- src/export.ts');
    expect(user).toContain("## Agent's summary\n```text\nAdded the export function.\n```");
    expect(user).toContain('## Diff (3 lines)\n```diff\ndiff --git a/src/export.ts');
    expect(user).not.toContain('"priority"');
  });

  it('says so when there are no gates, no summary and no diff', () => {
    const { user } = buildJudgePrompt(
      change({ gates: [], transcriptSummary: '', diff: '', filesChanged: [] }),
    );
    expect(user).toContain('## Quality gates\n(no gates were configured)');
    expect(user).toContain("## Agent's summary\n(none)");
    expect(user).toContain('## Files changed (0)\n(none)');
    expect(user).toContain('(empty: the iteration changed nothing)');
  });

  it('fences a diff that itself holds backticks with a longer fence', () => {
    const { user } = buildJudgePrompt(change({ diff: "+const md = '```js';\n+// ````\n" }));
    expect(user).toContain("`````diff\n+const md = '```js';\n+// ````\n`````");
  });

  it('cuts a huge diff and a long gate output, and says so', () => {
    // Prepare
    const diff = '+x\n'.repeat(PROMPT_LIMITS.diffChars);
    const gate = { ...change().gates[0]!, outputTail: 'y'.repeat(5_000) + 'LAST' };

    // Act
    const { user } = buildJudgePrompt(change({ diff, gates: [gate] }));

    // Assess
    expect(user).toContain(
      `[... cut: ${diff.length - PROMPT_LIMITS.diffChars} of ${diff.length} characters not shown]`,
    );
    expect(user).toContain('earlier characters not shown]\\n');
    expect(user).toContain('LAST"');
    expect(user.length).toBeLessThan(PROMPT_LIMITS.diffChars + 10_000);
  });
});

describe('Function: buildCorrectionPrompt', () => {
  it('names the problem and repeats the shape', () => {
    const text = buildCorrectionPrompt('gestalt: Too big: expected number to be <=5');
    expect(text).toContain('could not be used: gestalt: Too big');
    expect(text).toContain('{"gestalt": <number from 1 to 5>');
    expect(text).not.toContain('"criteria"');
  });

  it("repeats the rubric's shape, with the QUS verdicts for a story", () => {
    const text = buildCorrectionPrompt('criteria: no verdict on atomic', USER_STORY_RUBRIC);
    expect(text).toContain('could not be used: criteria: no verdict on atomic');
    expect(text).toContain('"criteria": [{"criterion": "<one of: well-formed, atomic');
  });
});

describe('Function: fence', () => {
  it('uses at least three backticks', () => {
    expect(fence('a', 'json')).toBe('```json\na\n```');
    expect(fence('a\n', '')).toBe('```\na\n```');
  });
});
