import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import {
  DASHBOARD_SECTIONS,
  type ChartSpec,
} from '../lambdas/core/observability/dashboard-layout.js';
import type { MetricName } from '../lambdas/core/schemas/metric-catalogue.js';
import { LOOP_METRIC_PERIOD, LOOP_METRICS_NAMESPACE, loopMetric } from './loop-metric.js';

/**
 * The project every widget is drawn for until one is picked: a placeholder the dashboard's
 * project variable (a pattern variable) replaces wherever it appears in the body, in
 * metrics' `project` dimension and inside the search expressions of the per-model charts
 * alike. A property variable would only reach the former.
 */
export const PROJECT_PLACEHOLDER = 'RALPH_PROJECT';

/** The metric whose `project` values fill the project picker: every recorded iteration sends it. */
const PROJECT_SOURCE_METRIC: MetricName = 'IterationsRecorded';

const GRID_WIDTH = 24;
const CHART_WIDTH = 8;
const CHART_HEIGHT = 6;

/**
 * Properties of {@link LoopDashboard}.
 */
export interface LoopDashboardProps {
  /** The `service` dimension the steps publish their metrics under (their service name). */
  readonly service: string;
}

/**
 * The CloudWatch dashboard of the loop's metrics: one text header per section and one graph
 * per chart of `DASHBOARD_SECTIONS`, the list the local dashboard draws too, with the
 * convergence thresholds drawn across their charts and a project picker at the top.
 */
export class LoopDashboard extends Construct {
  public readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: LoopDashboardProps) {
    super(scope, id);
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // A week: long enough to see a few runs converge, short enough for 5-minute points.
      defaultInterval: Duration.days(7),
      variables: [projectVariable(props.service)],
    });
    for (const section of DASHBOARD_SECTIONS) {
      this.dashboard.addWidgets(
        new cloudwatch.TextWidget({
          markdown: `## ${section.title}`,
          width: GRID_WIDTH,
          height: 1,
        }),
      );
      // One row per section; CDK's row layout wraps it at the grid's 24 columns.
      this.dashboard.addWidgets(
        ...section.charts.map((chart) => chartWidget(chart, props.service)),
      );
    }
  }
}

/** The project picker: its values are the projects that recorded an iteration. */
function projectVariable(service: string): cloudwatch.DashboardVariable {
  return new cloudwatch.DashboardVariable({
    id: 'project',
    label: 'Project',
    type: cloudwatch.VariableType.PATTERN,
    value: PROJECT_PLACEHOLDER,
    inputType: cloudwatch.VariableInputType.SELECT,
    values: cloudwatch.Values.fromSearch(
      `{${LOOP_METRICS_NAMESPACE},project,service} MetricName="${PROJECT_SOURCE_METRIC}" service="${service}"`,
      'project',
    ),
    defaultValue: cloudwatch.DefaultValue.FIRST,
  });
}

function chartWidget(chart: ChartSpec, service: string): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({
    title: chart.title,
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    stacked: chart.stacked ?? false,
    period: LOOP_METRIC_PERIOD,
    left: chart.metrics.map((name) =>
      chart.byModel
        ? perModel(name, chart.stat, service)
        : loopMetric(name, { service, project: PROJECT_PLACEHOLDER }, chart.stat).with({
            label: name,
          }),
    ),
    leftAnnotations: (chart.thresholds ?? []).map(({ value, label }) => ({ value, label })),
  });
}

/**
 * A model-level metric, one line per model: the models are not known when the stack is
 * built, so a search over the `model` dimension finds them, filtered to the picked project.
 */
function perModel(name: MetricName, stat: string, service: string): cloudwatch.SearchExpression {
  const filter = `MetricName="${name}" project="${PROJECT_PLACEHOLDER}" service="${service}"`;
  return new cloudwatch.SearchExpression({
    expression: `SEARCH('{${LOOP_METRICS_NAMESPACE},model,project,service} ${filter}', '${stat}', ${LOOP_METRIC_PERIOD.toSeconds()})`,
    label: name,
  });
}
