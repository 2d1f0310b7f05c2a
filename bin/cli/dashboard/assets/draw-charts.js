// A browser script, served and inlined as it is (so it runs the same from the source tree
// and from dist/); tsconfig.json leaves it out, its program having no DOM library.
/* global window, document, fetch, uPlot, setTimeout, AbortSignal, devicePixelRatio -- the browser's */
/**
 * Draws a dashboard page's charts with uPlot from `window.RALPH_DASHBOARD`: `data` (what
 * dashboard-data.ts gives) and, on a served page, `poll` (the URL of fresh data), fetched
 * every 2 s while a run in view is live. Each drawn chart is kept in `window.ralphCharts`
 * by id ({ plot, chart }) and its container says how many x values it drew
 * (`data-points`), so a test can read what a person sees.
 */
(function () {
  'use strict';
  const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04'];
  const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
  const POLL_MS = 2000;
  const FETCH_TIMEOUT_MS = 5000;
  const MOST_FAILURES = 5;
  const boot = window.RALPH_DASHBOARD;
  const charts = {};
  window.ralphCharts = charts;
  let failures = 0;

  function render(data) {
    for (const chart of data.charts) draw(chart);
    renderRuns(data.runs);
    document.body.dataset.live = String(data.live);
    document.body.dataset.ready = 'true';
  }

  function draw(chart) {
    const figure = document.querySelector(`[data-chart="${chart.id}"]`);
    const box = figure && figure.querySelector('.plot');
    if (!box) return;
    if (charts[chart.id]) charts[chart.id].plot.destroy();
    delete charts[chart.id];
    box.textContent = '';
    figure.dataset.points = String(chart.x.length);
    box.classList.toggle('empty', chart.x.length === 0);
    if (chart.x.length === 0) {
      box.textContent = 'no data yet';
      return;
    }
    const values = chart.stacked ? stack(chart.values) : chart.values;
    const plot = new uPlot(options(chart, box.clientWidth || 460), [chart.x, ...values], box);
    charts[chart.id] = { plot, chart };
  }

  function options(chart, width) {
    const xLabel = chart.axis === 'time' ? 'time' : 'iteration';
    return {
      width,
      height: 200,
      scales: {
        x: { time: chart.axis === 'time' },
        y: { range: (_u, min, max) => yRange(chart, min, max) },
      },
      // Iterations are whole numbers: no tick between two.
      axes: [chart.axis === 'time' ? {} : { label: xLabel, incrs: WHOLE_STEPS }, {}],
      series: [
        { label: xLabel },
        ...chart.series.map((series, index) => ({
          label: series.label,
          stroke: COLOURS[index % COLOURS.length],
          fill: chart.stacked ? `${COLOURS[index % COLOURS.length]}55` : undefined,
          width: 2,
          spanGaps: true,
          points: { show: true, size: 6 },
        })),
      ],
      // Stacked: each area is filled down to the one below it, not to zero.
      bands: chart.stacked
        ? chart.series.slice(1).map((_s, index) => ({ series: [index + 2, index + 1] }))
        : [],
      hooks: { draw: [(u) => drawThresholds(u, chart.thresholds)] },
    };
  }

  /** Running sums, series by series: what a stacked chart draws (a missing value adds 0). */
  function stack(values) {
    const sums = values.length === 0 ? [] : values[0].map(() => 0);
    return values.map((series) =>
      series.map((value, index) => {
        sums[index] += value ?? 0;
        return sums[index];
      }),
    );
  }

  /** From 0 (or the lowest value) to the highest, thresholds included, with headroom. */
  function yRange(chart, min, max) {
    const limits = chart.thresholds.map((threshold) => threshold.value);
    const known = [min, max, ...limits].filter((value) => Number.isFinite(value));
    const low = Math.min(0, ...known);
    const highest = Math.max(low, ...known);
    // A flat line at 0 still needs a scale; small values (costs in USD) keep their own.
    const high = highest > low ? highest : low + 1;
    return [low, high + (high - low) * 0.1];
  }

  function drawThresholds(u, thresholds) {
    const ctx = u.ctx;
    for (const threshold of thresholds) {
      const y = u.valToPos(threshold.value, 'y', true);
      ctx.save();
      ctx.strokeStyle = '#6b7280';
      ctx.fillStyle = '#374151';
      ctx.lineWidth = devicePixelRatio;
      ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(u.bbox.left, y);
      ctx.lineTo(u.bbox.left + u.bbox.width, y);
      ctx.stroke();
      ctx.font = `${11 * devicePixelRatio}px sans-serif`;
      ctx.fillText(`${threshold.label} ${threshold.value}`, u.bbox.left + 4, y - 4);
      ctx.restore();
    }
  }

  function renderRuns(runs) {
    const body = document.querySelector('#runs tbody');
    if (!body) return;
    body.textContent = '';
    for (const run of runs) {
      const row = body.insertRow();
      viewCell(row, run.runId, `?run=${encodeURIComponent(run.runId)}`);
      viewCell(row, run.project, `?project=${encodeURIComponent(run.project)}`);
      const cells = [
        run.status,
        String(run.iterations),
        `${run.storiesPassed}/${run.storiesTotal}`,
        run.createdAt,
        run.endedAt ?? '',
      ];
      for (const text of cells) row.insertCell().textContent = text;
    }
  }

  /** A cell naming a view: a link to it on a served page, text in a report. */
  function viewCell(row, text, query) {
    const cell = row.insertCell();
    if (!boot.poll) {
      cell.textContent = text;
      return;
    }
    const link = document.createElement('a');
    link.href = query;
    link.textContent = text;
    cell.append(link);
  }

  function setStatus(text) {
    const status = document.getElementById('status');
    if (status) status.textContent = text;
  }

  async function refresh() {
    try {
      const response = await fetch(boot.poll, {
        cache: 'no-store',
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = await response.json();
      failures = 0;
      render(data);
      follow(data);
    } catch (error) {
      failures += 1;
      if (failures > MOST_FAILURES) {
        setStatus(`refresh failed ${failures} times (${error.message}): reload to try again`);
        return;
      }
      setStatus(`refresh failed (${error.message}); trying again`);
      setTimeout(refresh, POLL_MS * 2 ** failures);
    }
  }

  /** On a served page, polls again while a run in view is live. */
  function follow(data) {
    if (!boot.poll) return;
    if (!data.live) {
      setStatus(`no run in view is live · read ${new Date().toLocaleTimeString()}`);
      return;
    }
    setStatus(
      `live · refreshing every ${POLL_MS / 1000} s · read ${new Date().toLocaleTimeString()}`,
    );
    setTimeout(refresh, POLL_MS);
  }

  render(boot.data);
  follow(boot.data);
})();
