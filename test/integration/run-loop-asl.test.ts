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
  ItemsPath?: string;
  MaxConcurrencyPath?: string;
  ItemSelector?: Record<string, string>;
  ItemProcessor?: { States: Record<string, State> };
  ResultPath?: string | null;
  Parameters?: Record<string, string>;
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

  it("judges the artefacts in a Map bounded by the run's judge concurrency, pointers only", () => {
    const map = definition.States.EvaluateExpensive;
    expect(map?.Type).toBe('Map');
    expect(map?.ItemsPath).toBe('$.evaluation.artefactIds');
    expect(map?.MaxConcurrencyPath).toBe('$.evaluation.judgeConcurrency');
    expect(map?.ResultPath).toBeNull();
    expect(map?.Catch?.at(-1)?.ErrorEquals).toEqual(['States.ALL']);
    const judge = map?.ItemProcessor?.States?.JudgeArtefact;
    expect(judge?.Type).toBe('Task');
    expect(judge?.Retry?.length).toBeGreaterThan(0);
    expect(map?.ItemSelector).toEqual({
      'runId.$': '$.runId',
      'iteration.$': '$.iteration',
      'artefactId.$': '$$.Map.Item.Value',
    });
  });

  it('treats an already started next segment as handed over (a retried StartNextSegment)', () => {
    expect(definition.States.StartNextSegment?.Catch?.[0]).toEqual({
      ErrorEquals: ['StepFunctions.ExecutionAlreadyExistsException'],
      ResultPath: null,
      Next: 'SegmentHandedOver',
    });
  });

  it('loops run agent (→ evaluation) → advance, and routes every action', () => {
    const states = definition.States;
    expect(definition.StartAt).toBe('InitRun');
    // InitRun plans the segment's first iteration as Advance plans the others.
    expect(states.InitRun?.Next).toBe('Route');
    expect(states.RunAgent?.Resource).toBe('arn:aws:states:::ecs:runTask.sync');
    expect(states.RunAgent?.Next).toBe('InvestigateEnabled');
    expect(states.InvestigateEnabled?.Choices?.map((choice) => choice.Next)).toEqual([
      'OpenFixPullRequest',
    ]);
    expect(states.InvestigateEnabled?.Default).toBe('EvaluationEnabled');
    expect(states.OpenFixPullRequest?.Next).toBe('EvaluationEnabled');
    // A runner that failed: nothing to score, Advance records its error.
    expect(states.RunAgent?.Catch?.map((c) => c.Next)).toEqual(['Advance']);
    expect(states.EvaluationEnabled?.Choices?.map((choice) => choice.Next)).toEqual([
      'CollectArtefacts',
    ]);
    expect(states.EvaluationEnabled?.Default).toBe('Advance');
    expect(states.CollectArtefacts?.Next).toBe('AnythingToEvaluate');
    expect(states.AnythingToEvaluate?.Choices?.map((choice) => choice.Next)).toEqual([
      'EvaluateExpensive',
    ]);
    expect(states.AnythingToEvaluate?.Default).toBe('Advance');
    expect(states.EvaluateExpensive?.Next).toBe('EvaluateCheap');
    expect(states.EvaluateCheap?.Next).toBe('AnalyzeGap');
    expect(states.AnalyzeGap?.Next).toBe('Advance');
    expect(states.Advance?.Next).toBe('Route');
    expect(states.Route?.Choices?.map((choice) => choice.Next)).toEqual([
      // The next iteration is planned ($.planned).
      'RunAgent',
      'StartNextSegment',
      'PauseRun',
    ]);
    expect(states.Route?.Default).toBe('FinalizeRun');
    for (const gone of ['PrepareIteration', 'RecordIteration', 'AssessProgress'])
      expect(states[gone]).toBeUndefined();
  });

  it('takes an investigate iteration to the pull-request step, retried and caught like its neighbours', () => {
    const choice = definition.States.InvestigateEnabled as State & {
      Choices: { And: { Variable: string }[] }[];
    };
    expect(choice.Choices[0]?.And.map((test) => test.Variable)).toEqual([
      '$.investigate',
      '$.investigate',
    ]);
    const step = definition.States.OpenFixPullRequest;
    expect(step?.Type).toBe('Task');
    expect(step?.Parameters).toEqual({
      'runId.$': '$.runId',
      'segment.$': '$.segment',
      'iteration.$': '$.iteration',
    });
    // The outcome is small and kept beside the state; the state itself goes on unchanged.
    expect(step?.ResultPath).toBe('$.fixPullRequest');
    const [transient] = (step?.Retry ?? []) as {
      ErrorEquals: string[];
      MaxAttempts: number;
      BackoffRate: number;
      JitterStrategy: string;
    }[];
    expect(transient?.ErrorEquals).toContain('TransientError');
    expect(transient).toMatchObject({ MaxAttempts: 4, BackoffRate: 2, JitterStrategy: 'FULL' });
    expect(step?.Catch).toEqual([
      { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Advance' },
    ]);
  });
});
