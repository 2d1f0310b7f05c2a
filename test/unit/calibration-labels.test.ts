import { describe, expect, it } from 'vitest';
import {
  normaliseName,
  parseLabels,
  readLabel,
  requireCriteria,
} from '../../lambdas/core/calibration/labels.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';

/** The header of the UStAI file, as published. */
const USTAI_HEADER =
  'ID,Abstract,US_num,LLM,role_shorten,User story,Implied ethical needs,Non-Functional Requirements,atomic,minimal,Conceptually sound,Problem-oriented,Unambiguous,Conflict-free,"Conflict-free, us",Estimatable,Independent,Unique,"Unique, us",Meas-ends relation,"Meas-ends relation, us"';
/** Two of its rows (the second: a story the annotators found no feature in). */
const USTAI_ROWS = [
  'A1US2Ge,A1,US2,Gemini_1.5_flash,city planner,"As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.",N/A,N/A,conjunctions,minimal,Conceptually sound,problem-oriented,General,conflict,A1US9Ge,No,No,unique,,,',
  'A2US5Ll,A2,US5,Llama,researcher,"As a researcher, I want (AVs) tested.",N/A,N/A,atomic,brackets,no_feature,,,Conflict-free,,No,No,isSemDuplicate,A2US4Ll,,',
];

const refusal = (text: string): string[] => {
  try {
    parseLabels(text, 'labels.csv');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return [...(error as InvalidInputError).issues];
  }
  throw new Error('parsed');
};

describe('Function: normaliseName', () => {
  it.each([
    ['Conceptually sound', 'conceptually-sound'],
    ['Problem-oriented', 'problem-oriented'],
    [' WELL_FORMED ', 'well-formed'],
    ['full  sentence', 'full-sentence'],
    ['User story', 'user-story'],
  ])('%j → %j', (name, normalised) => {
    expect(normaliseName(name)).toBe(normalised);
  });
});

describe('Function: readLabel', () => {
  it.each([
    ['conceptually-sound', 'Conceptually sound'],
    ['atomic', 'atomic'],
    ['minimal', 'Minimal'],
    ['unique', 'unique'],
    ['unambiguous', 'Unambiguous'],
    ['problem-oriented', 'problem_oriented'],
    ['atomic', 'ok'],
    ['atomic', 'PASS'],
    ['atomic', ' yes '],
  ] as const)('%s: %j is no defect', (criterion, cell) => {
    expect(readLabel(criterion, cell)).toEqual({ defect: false });
  });

  it.each([
    ['atomic', 'conjunctions'],
    ['minimal', 'brackets'],
    ['problem-oriented', 'solution_oriented'],
    ['conceptually-sound', 'no_valid_role'],
    ['atomic', 'defect'],
    ['unique', 'isSemDuplicate'],
  ] as const)('%s: %j is a defect of that kind', (criterion, cell) => {
    expect(readLabel(criterion, ` ${cell} `)).toEqual({ defect: true, kind: cell });
  });

  it.each(['', '  ', 'n/a', 'N/A'])('%j is not labelled', (cell) => {
    expect(readLabel('atomic', cell)).toBeUndefined();
  });

  it("does not take another criterion's name as a pass", () => {
    expect(readLabel('minimal', 'atomic')).toEqual({ defect: true, kind: 'atomic' });
  });
});

describe('Function: parseLabels', () => {
  it('reads the UStAI file as it is: by id, its criterion columns, other columns ignored', () => {
    // Act
    const labels = parseLabels([USTAI_HEADER, ...USTAI_ROWS].join('\r\n'), 'ustai.csv');

    // Assess
    expect(labels.matchBy).toBe('id');
    expect(labels.criteria).toEqual([
      'atomic',
      'minimal',
      'conceptually-sound',
      'problem-oriented',
      'unambiguous',
      'unique',
    ]);
    expect(labels.rows[0]).toEqual({
      line: 2,
      id: 'A1US2Ge',
      story:
        'As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.',
      labels: {
        atomic: { defect: true, kind: 'conjunctions' },
        minimal: { defect: false },
        'conceptually-sound': { defect: false },
        'problem-oriented': { defect: false },
        unambiguous: { defect: true, kind: 'General' },
        unique: { defect: false },
      },
    });
    // Blank cells are not labelled: the criterion is absent from the row.
    expect(labels.rows[1]?.labels).toEqual({
      atomic: { defect: false },
      minimal: { defect: true, kind: 'brackets' },
      'conceptually-sound': { defect: true, kind: 'no_feature' },
      unique: { defect: true, kind: 'isSemDuplicate' },
    });
  });

  it('matches by the story text (trimmed) when there is no id column', () => {
    const labels = parseLabels(
      'Text,Atomic,Well formed\n"  As a user, I want x.  ",yes,defect\n',
      'labels.csv',
    );
    expect(labels.matchBy).toBe('story');
    expect(labels.rows[0]).toEqual({
      line: 2,
      story: 'As a user, I want x.',
      labels: { atomic: { defect: false }, 'well-formed': { defect: true, kind: 'defect' } },
    });
    expect(labels.criteria).toEqual(['well-formed', 'atomic']);
  });

  it.each(['story', 'User Story', 'user_story', 'TEXT'])('takes %j as the story column', (head) => {
    expect(parseLabels(`${head},atomic\ns,ok\n`, 'l.csv').rows[0]?.story).toBe('s');
  });

  it('refuses a file with neither an id nor a story column, showing its header', () => {
    expect(refusal('name,atomic\ns,ok\n')).toEqual([
      'no column names the stories: add an "id" column or a story column ("story", "user story" or "text"); the header is: name, atomic',
    ]);
  });

  it('refuses two columns for one criterion', () => {
    expect(refusal('id,Atomic,atomic\nA,ok,ok\n')).toEqual([
      'columns 2 and 3 are both "atomic" (headers "Atomic" and "atomic")',
    ]);
  });

  it('refuses an empty key and a repeated story text, with the lines', () => {
    expect(refusal('id,atomic\nA,ok\n,ok\n')).toEqual(['line 3: the id cell is empty']);
    expect(refusal('story,atomic\ns,ok\ns,conjunctions\n')).toEqual([
      'line 3: the same story as line 2 ("s"); add an "id" column to tell them apart',
    ]);
  });

  it('names the later rows of a repeated id by their occurrence, and says so', () => {
    // Prepare: UStAI repeats A10US8Ge on the row of US9.
    const labels = parseLabels('id,atomic\nA10US8Ge,ok\nB,ok\nA10US8Ge,ok\nA10US8Ge,ok\n', 'l.csv');

    // Assess
    expect(labels.rows.map((row) => row.id)).toEqual(['A10US8Ge', 'B', 'A10US8Ge#2', 'A10US8Ge#3']);
    expect(labels.renamed).toEqual([
      { line: 4, id: 'A10US8Ge', as: 'A10US8Ge#2' },
      { line: 5, id: 'A10US8Ge', as: 'A10US8Ge#3' },
    ]);
  });

  it('reads a file without criterion columns, which requireCriteria then refuses', () => {
    const labels = parseLabels('id,story\nA,s\n', 'l.csv');
    expect(labels.criteria).toEqual([]);
    expect(() => requireCriteria(labels)).toThrow(/no column names a QUS criterion/);
  });
});
