/**
 * What the dashboards draw: sections of charts over catalogued metrics. The CloudWatch
 * dashboard (lib/dashboard.ts) and the local one (`ralph dashboard`, `ralph show --html`)
 * are both drawn from this list, so they show the same charts under the same names, and a
 * chart can only name a metric the steps emit.
 */
import { ConvergenceConfigSchema } from '../schemas/evaluation-config.js';
import type { MetricName } from '../schemas/metric-catalogue.js';

/** How a chart sums a period's values (CloudWatch statistics). */
export type ChartStat = 'Average' | 'Sum' | 'Maximum';

export interface ChartThreshold {
  readonly value: number;
  readonly label: string;
}

export interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly metrics: readonly MetricName[];
  readonly stat: ChartStat;
  /** Horizontal lines drawn across the chart (a pass bar, an alarm threshold). */
  readonly thresholds?: readonly ChartThreshold[];
  /** Drawn as stacked areas (counts that add up to a whole). */
  readonly stacked?: boolean;
  /** One line per model (metrics of level `model`, whose third dimension is the model). */
  readonly byModel?: boolean;
}

export interface DashboardSection {
  readonly title: string;
  readonly charts: readonly ChartSpec[];
}

const convergence = ConvergenceConfigSchema.parse({});

export const DASHBOARD_SECTIONS: readonly DashboardSection[] = [
  {
    title: 'Convergence',
    charts: [
      {
        id: 'scores',
        title: 'Judge vs cheap score',
        metrics: ['JudgeScore', 'CheapScore'],
        stat: 'Average',
        thresholds: [{ value: convergence.cheapThreshold, label: 'cheap threshold' }],
      },
      {
        id: 'gap',
        title: 'Gap (judge − cheap)',
        metrics: ['Gap', 'MAE'],
        stat: 'Average',
        thresholds: [{ value: convergence.gapThreshold, label: 'gap threshold' }],
      },
      {
        id: 'agreement',
        title: 'Agreement (ρ, QWK)',
        metrics: ['Spearman', 'QWK'],
        stat: 'Average',
      },
    ],
  },
  {
    title: 'Learning',
    charts: [
      {
        id: 'patterns',
        title: 'Patterns (active, provisional)',
        metrics: ['ActivePatterns', 'ProvisionalPatterns'],
        stat: 'Maximum',
      },
      {
        id: 'injected',
        title: 'Learnings injected, control iterations',
        metrics: ['InjectedLearnings', 'ControlIterations'],
        stat: 'Sum',
      },
      {
        id: 'effect',
        title: 'Iterations to pass: injected vs control',
        metrics: ['InjectedIterationsToPass', 'ControlIterationsToPass'],
        stat: 'Average',
      },
    ],
  },
  {
    title: 'Loop health',
    charts: [
      {
        id: 'outcomes',
        title: 'Iteration outcomes',
        metrics: ['IterationsPassed', 'IterationsFailed'],
        stat: 'Sum',
        stacked: true,
      },
      {
        id: 'stagnation',
        title: 'Stagnation level, supervisor interventions',
        metrics: ['StagnationLevel', 'SupervisorInterventions'],
        stat: 'Maximum',
      },
      { id: 'stories', title: 'Stories passed', metrics: ['StoriesComplete'], stat: 'Maximum' },
      { id: 'gates', title: 'Gate pass rate (%)', metrics: ['GatePassRate'], stat: 'Average' },
      {
        id: 'durations',
        title: 'Agent and gate time (ms)',
        metrics: ['AgentDuration', 'GateDuration'],
        stat: 'Average',
      },
    ],
  },
  {
    title: 'Cost',
    charts: [
      {
        id: 'iteration-cost',
        title: 'Cost per iteration (USD)',
        metrics: ['IterationCost'],
        stat: 'Sum',
      },
      {
        id: 'story-cost',
        title: 'Cost per passed story (USD)',
        metrics: ['CostPerPassedStory'],
        stat: 'Average',
      },
      {
        id: 'model-cost',
        title: 'Cost by model (USD)',
        metrics: ['ModelCost'],
        stat: 'Sum',
        byModel: true,
      },
      {
        id: 'model-tokens',
        title: 'Tokens by model',
        metrics: ['ModelInputTokens', 'ModelOutputTokens'],
        stat: 'Sum',
        byModel: true,
      },
    ],
  },
];

/** Every chart, in order. */
export const DASHBOARD_CHARTS: readonly ChartSpec[] = DASHBOARD_SECTIONS.flatMap(
  (section) => section.charts,
);
