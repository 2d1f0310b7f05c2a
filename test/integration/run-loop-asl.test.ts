import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import validator from 'asl-validator';
import {
  LOCAL_SUBSTITUTIONS,
  RUN_LOOP_ASL_PATH,
  loadRunLoopDefinition,
  placeholdersOf,
} from '../../local/run-loop-definition.js';

const text = readFileSync(RUN_LOOP_ASL_PATH, 'utf8');

interface State {
  Type: string;
  Resource?: string;
  Retry?: unknown[];
  Catch?: { ErrorEquals: string[]; Next: string }[];
  Next?: string;
  End?: boolean;
  Choices?: { Next: string }[];
  Default?: string;
}
const definition = loadRunLoopDefinition(LOCAL_SUBSTITUTIONS) as {
  StartAt: string;
  States: Record<string, State>;
  QueryLanguage?: string;
};

describe('State machine: run-loop.asl.json', () => {
  it('is valid Amazon States Language once its placeholders are filled', async () => {
    // Act
    const result = validator(definition);

    // Assess
    expect(result.errors).toEqual([]);
    expect(result.isValid).toBe(true);
  });

  it('uses JSONPath only (no JSONata, no Assign, no task tokens)', () => {
    expect(definition.QueryLanguage).toBeUndefined();
    expect(text).not.toMatch(/"Assign"|"Output"|"Arguments"|waitForTaskToken|\{%/);
  });

  it('has a placeholder for every resource the stack substitutes', () => {
    expect(placeholdersOf(text).sort()).toEqual(Object.keys(LOCAL_SUBSTITUTIONS).sort());
  });

  it('retries and catches on every Task', () => {
    const tasks = Object.entries(definition.States).filter(([, state]) => state.Type === 'Task');
    expect(tasks.length).toBeGreaterThanOrEqual(8);
    for (const [name, state] of tasks) {
      expect(state.Retry?.length, `${name} retries`).toBeGreaterThan(0);
      if (name !== 'RecordRunFailure')
        expect(state.Catch?.at(-1)?.ErrorEquals, `${name} catches`).toEqual(['States.ALL']);
    }
  });

  it('treats an already started next segment as handed over (a retried StartNextSegment)', () => {
    expect(definition.States.StartNextSegment?.Catch?.[0]).toEqual({
      ErrorEquals: ['StepFunctions.ExecutionAlreadyExistsException'],
      ResultPath: null,
      Next: 'SegmentHandedOver',
    });
  });

  it('loops prepare → run agent → record → assess, and routes every action', () => {
    const states = definition.States;
    expect(definition.StartAt).toBe('InitRun');
    expect(states.PrepareIteration?.Next).toBe('RunAgent');
    expect(states.RunAgent?.Next).toBe('RecordIteration');
    expect(states.RunAgent?.Resource).toBe('arn:aws:states:::ecs:runTask.sync');
    expect(states.RecordIteration?.Next).toBe('AssessProgress');
    expect(states.AssessProgress?.Next).toBe('Route');
    expect(states.Route?.Choices?.map((choice) => choice.Next)).toEqual([
      'PrepareIteration',
      'StartNextSegment',
      'PauseRun',
    ]);
    expect(states.Route?.Default).toBe('FinalizeRun');
  });
});
