/**
 * Every metric the loop emits, with its unit and what it measures: the one list the steps
 * emit from and the dashboards and alarms are drawn from, so a name cannot differ between
 * them. Dimensions are kept small (the project, and the stack as the service); the run id
 * and iteration travel as properties, never as dimensions.
 */
/** The CloudWatch namespace every metric is published in. */
export const METRICS_NAMESPACE = 'RalphCloud';

export const METRIC_UNITS = ['Count', 'Milliseconds', 'Percent', 'None'] as const;
export type MetricUnitName = (typeof METRIC_UNITS)[number];

interface MetricDefinition {
  readonly unit: MetricUnitName;
  /**
   * Emitted once per recorded iteration, once when a run ends, or once per model an
   * iteration's receipt names (with the model as a third dimension, `model`).
   */
  readonly level: 'iteration' | 'run' | 'model';
  readonly about: string;
}

export const METRICS = {
  IterationsRecorded: { unit: 'Count', level: 'iteration', about: 'an iteration was recorded' },
  IterationsPassed: { unit: 'Count', level: 'iteration', about: 'its gates passed and it counted' },
  IterationsFailed: { unit: 'Count', level: 'iteration', about: 'it did not pass' },
  GatePassRate: { unit: 'Percent', level: 'iteration', about: 'gates passed of gates run' },
  AgentDuration: { unit: 'Milliseconds', level: 'iteration', about: "the agent's time" },
  GateDuration: { unit: 'Milliseconds', level: 'iteration', about: "the gates' time" },
  JudgeScore: { unit: 'None', level: 'iteration', about: "the judge's mean score (1–5)" },
  CheapScore: { unit: 'None', level: 'iteration', about: "the cheap mode's mean score (1–5)" },
  Gap: { unit: 'None', level: 'iteration', about: 'judge mean − cheap mean' },
  MAE: { unit: 'None', level: 'iteration', about: 'mean absolute error of cheap against judge' },
  Spearman: { unit: 'None', level: 'iteration', about: 'rank agreement ρ of the two modes' },
  QWK: { unit: 'None', level: 'iteration', about: 'quadratic weighted κ of the two modes' },
  ActivePatterns: { unit: 'Count', level: 'iteration', about: "the pattern set's active patterns" },
  ProvisionalPatterns: { unit: 'Count', level: 'iteration', about: 'patterns still provisional' },
  EvaluationCost: { unit: 'None', level: 'iteration', about: "the evaluation's cost in USD" },
  InjectedLearnings: {
    unit: 'Count',
    level: 'iteration',
    about: 'hints, rules and patterns given',
  },
  ControlIterations: { unit: 'Count', level: 'iteration', about: 'a control task: nothing given' },
  JudgeUnreliable: { unit: 'Count', level: 'iteration', about: 'the judge disagreed with itself' },
  Divergences: {
    unit: 'Count',
    level: 'iteration',
    about: 'the two modes diverged (flags raised)',
  },
  StagnationLevel: {
    unit: 'None',
    level: 'iteration',
    about: 'stagnation after it: 0 none, 1 warning, 2 elevated, 3 critical',
  },
  SupervisorInterventions: {
    unit: 'Count',
    level: 'iteration',
    about: 'a supervisor verdict other than PROCEED',
  },
  StoriesComplete: { unit: 'Count', level: 'iteration', about: 'stories passed after it' },
  IterationCost: {
    unit: 'None',
    level: 'iteration',
    about: "its receipt's total in USD (agent, judge and proposer)",
  },
  ModelInputTokens: { unit: 'Count', level: 'model', about: "a model's input tokens" },
  ModelOutputTokens: { unit: 'Count', level: 'model', about: "a model's output tokens" },
  ModelCost: { unit: 'None', level: 'model', about: "a model's cost in USD" },
  RunsEnded: { unit: 'Count', level: 'run', about: 'a run ended (its status is a property)' },
  RunsAborted: {
    unit: 'Count',
    level: 'run',
    about: 'a run was aborted by the supervisor or a limit',
  },
  RunIterations: { unit: 'Count', level: 'run', about: 'iterations the run took' },
  StoriesPassed: { unit: 'Count', level: 'run', about: 'stories complete at its end' },
  InjectedIterationsToPass: {
    unit: 'None',
    level: 'run',
    about: 'mean iterations to pass of tasks given learnings',
  },
  ControlIterationsToPass: {
    unit: 'None',
    level: 'run',
    about: 'mean iterations to pass of control tasks',
  },
  RunCost: { unit: 'None', level: 'run', about: 'the sum of its receipts in USD' },
  CostPerPassedStory: { unit: 'None', level: 'run', about: 'receipts USD per story passed' },
  BudgetStops: { unit: 'Count', level: 'run', about: 'a run stopped by its cost budget' },
} as const satisfies Record<string, MetricDefinition>;

export type MetricName = keyof typeof METRICS;

/** One value of a catalogued metric. */
export interface MetricPoint {
  readonly name: MetricName;
  readonly value: number;
  /** The model a `level: 'model'` metric is of (its third dimension); absent otherwise. */
  readonly model?: string;
}

/** The catalogue's names, in order: what a dashboard draws and a test compares with. */
export const METRIC_NAMES = Object.keys(METRICS) as MetricName[];
