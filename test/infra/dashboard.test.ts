import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS_NAMESPACE } from '../../lambdas/adapters/emf-metrics.js';
import {
  DASHBOARD_CHARTS,
  DASHBOARD_SECTIONS,
} from '../../lambdas/core/observability/dashboard-layout.js';
import { METRIC_NAMES } from '../../lambdas/core/schemas/metric-catalogue.js';
import { LoopDashboard, PROJECT_PLACEHOLDER } from '../../lib/dashboard.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { nagErrors } from '../support/nag.js';

const SERVICE = 'ralph-cloud';

/** A dashboard body's parts: strings, and references to the stack's region. */
type BodyPart = string | { Ref: string };

interface MetricWidget {
  type: 'metric';
  properties: {
    title: string;
    stacked: boolean;
    stat?: string;
    metrics: unknown[][];
    annotations?: { horizontal: { value: number; label: string }[] };
  };
}
interface TextWidget {
  type: 'text';
  properties: { markdown: string };
}
interface DashboardBody {
  widgets: (MetricWidget | TextWidget)[];
  variables: Record<string, unknown>[];
}

/** The dashboard's JSON body, its `Fn::Join` resolved with a region of our choosing. */
function dashboardBody(template: Template): DashboardBody {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  const join = dashboard?.Properties.DashboardBody['Fn::Join'] as [string, BodyPart[]];
  const text = join[1]
    .map((part) =>
      typeof part === 'string' ? part : part.Ref === 'AWS::Region' ? 'eu-west-1' : '?',
    )
    .join(join[0]);
  return JSON.parse(text) as DashboardBody;
}

/** A graphed metric line: its namespace, name, dimensions and statistic. */
interface Line {
  namespace: string;
  name: string;
  dimensions: Record<string, string>;
  stat: string;
  search?: string;
}

/** The lines of a metric widget: plain metrics, and metric names in search expressions. */
function linesOf(widget: MetricWidget): Line[] {
  return widget.properties.metrics.map((entry) => {
    const options = entry.at(-1) as { stat?: string; expression?: string };
    if (options.expression !== undefined) {
      const search = /^SEARCH\('\{([^,]+),([^}]+)\} MetricName="(\w+)"(.*)', '(\w+)', \d+\)$/.exec(
        options.expression,
      );
      if (!search) throw new Error(`not a search over one metric: ${options.expression}`);
      const filters = [...(search[4] ?? '').matchAll(/(\w+)="([^"]*)"/g)];
      return {
        namespace: search[1] ?? '',
        name: search[3] ?? '',
        dimensions: Object.fromEntries(filters.map((match) => [match[1], match[2]])),
        stat: search[5] ?? '',
        search: search[2],
      };
    }
    const [namespace, name, ...rest] = entry.slice(0, -1) as string[];
    const dimensions: Record<string, string> = {};
    for (let i = 0; i < rest.length; i += 2) dimensions[rest[i] ?? ''] = rest[i + 1] ?? '';
    // A graph's default statistic is the average.
    return {
      namespace: namespace ?? '',
      name: name ?? '',
      dimensions,
      stat: options.stat ?? widget.properties.stat ?? 'Average',
    };
  });
}

describe('Class: LoopDashboard', () => {
  let body: DashboardBody;
  let stack: Stack;
  const charts = (): MetricWidget[] =>
    body.widgets.filter((widget): widget is MetricWidget => widget.type === 'metric');

  beforeAll(() => {
    stack = new Stack(new App({ context: cdkJsonContext() }), 'DashboardTest');
    new LoopDashboard(stack, 'Dashboard', { service: SERVICE });
    body = dashboardBody(Template.fromStack(stack));
  });

  it('draws one graph per chart of the layout, with its title and its metrics', () => {
    // Act
    const drawn = charts().map((widget) => ({
      title: widget.properties.title,
      metrics: linesOf(widget).map((line) => line.name),
      stats: [...new Set(linesOf(widget).map((line) => line.stat))],
      stacked: widget.properties.stacked,
    }));

    // Assess
    expect(drawn).toEqual(
      DASHBOARD_CHARTS.map((chart) => ({
        title: chart.title,
        metrics: chart.metrics,
        stats: [chart.stat],
        stacked: chart.stacked ?? false,
      })),
    );
  });

  it('names only catalogued metrics, in the namespace and with the dimensions the steps publish', () => {
    // Act
    const lines = charts().flatMap(linesOf);

    // Assess
    for (const line of lines) {
      expect(METRIC_NAMES).toContain(line.name);
      expect(line.namespace).toBe(METRICS_NAMESPACE);
      expect(line.dimensions).toEqual({ service: SERVICE, project: PROJECT_PLACEHOLDER });
    }
    expect(new Set(lines.map((line) => line.name))).toEqual(
      new Set(DASHBOARD_CHARTS.flatMap((chart) => chart.metrics)),
    );
  });

  it('searches the per-model charts over the model dimension, one line per model', () => {
    // Act
    const byModel = charts()
      .filter(
        (widget) => DASHBOARD_CHARTS.find((c) => c.title === widget.properties.title)?.byModel,
      )
      .flatMap(linesOf);

    // Assess
    expect(byModel.map((line) => line.name)).toEqual([
      'ModelCost',
      'ModelInputTokens',
      'ModelOutputTokens',
    ]);
    for (const line of byModel) expect(line.search).toBe('model,project,service');
  });

  it('draws the cheap threshold across the scores and the gap threshold across the gap', () => {
    // Act
    const annotations = Object.fromEntries(
      charts().map((widget) => [
        widget.properties.title,
        widget.properties.annotations?.horizontal.map((line) => line.value) ?? [],
      ]),
    );

    // Assess
    expect(annotations['Judge vs cheap score']).toEqual([4]);
    expect(annotations['Gap (judge − cheap)']).toEqual([0.5]);
  });

  it('heads each section with its title, above its charts', () => {
    // Act
    const layout = body.widgets.map((widget) =>
      widget.type === 'text' ? widget.properties.markdown : widget.properties.title,
    );

    // Assess
    expect(layout).toEqual(
      DASHBOARD_SECTIONS.flatMap((section) => [
        `## ${section.title}`,
        ...section.charts.map((chart) => chart.title),
      ]),
    );
  });

  it('lets the reader pick the project from those that recorded iterations', () => {
    // Assess
    expect(body.variables).toEqual([
      {
        id: 'project',
        label: 'Project',
        type: 'pattern',
        pattern: PROJECT_PLACEHOLDER,
        inputType: 'select',
        search: `{${METRICS_NAMESPACE},project,service} MetricName="IterationsRecorded" service="${SERVICE}"`,
        populateFrom: 'project',
        defaultValue: '__FIRST',
      },
    ]);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    expect(nagErrors(stack)).toEqual([]);
  });
});
