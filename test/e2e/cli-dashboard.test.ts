import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CHARTS } from '../../lambdas/core/observability/dashboard-layout.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { openLocalStack } from '../../local/local-stack.js';
import { artefactPath, launchChromium } from '../support/chromium.js';
import { jsonOf, ralphProcess, runCli } from '../support/cli.js';
import { makeGitRepo, makePrd } from '../support/git-repo.js';
import { makeReceipt } from '../support/receipts.js';

/** What a page's chart drew: uPlot's own data (x, then each series as drawn) and labels. */
interface Drawn {
  labels: string[];
  data: (number | null)[][];
  /** The values before stacking (a stacked chart draws running sums). */
  raw: (number | null)[][];
}

/** `window.ralphCharts` of a page (draw-charts.js): each chart's uPlot and its data. */
type PageCharts = Record<
  string,
  {
    plot: { data: (number | null)[][]; series: { label: string }[] };
    chart: { values: (number | null)[][] };
  }
>;

const STORIES = 3;

/**
 * `ralph dashboard` and `ralph show --html` as a person sees them, in headless Chromium: a
 * real run of three stories watched live on the served page, then, with receipts written to
 * its iterations, the pages of the run, of every run and of its project, and the written
 * report with every request other than the file refused. Screenshots are kept in
 * test-results/.
 */
describe('ralph dashboard and ralph show --html in Chromium', () => {
  let dataDir: string;
  let repo: Awaited<ReturnType<typeof makeGitRepo>>;
  let run: ReturnType<typeof ralphProcess>;
  let runId: string;
  let iterations: IterationRecord[];
  let dashboard: ReturnType<typeof ralphProcess>;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-dashboard-'));
    repo = await makeGitRepo({ 'prd.json': JSON.stringify(makePrd(STORIES), null, 2) });
    // The run goes on in its own process while the page is open: each story's agent waits
    // for the test to let it finish, so the page is seen before, during and after.
    run = ralphProcess([
      'run',
      '--repo',
      repo.path,
      '--agent',
      gatedAgent(dataDir),
      '--data-dir',
      dataDir,
    ]);
    dashboard = ralphProcess(['dashboard', '--port', '0', '--data-dir', dataDir]);
    [url, browser] = await Promise.all([dashboardUrl(dashboard), launchChromium()]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    for (const child of [run, dashboard])
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        await child;
      }
    await repo?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refreshes the page while the run is live, and stops once it has ended', async () => {
    const page = await browser.newPage();
    // The run's process may still be starting when the dashboard is up: load until it shows.
    await expect
      .poll(
        async () => {
          await page.goto(url);
          return page.locator('body[data-ready="true"]').getAttribute('data-live');
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe('true');
    const outcomes = page.locator('figure[data-chart="outcomes"]');
    await expect(outcomes.getAttribute('data-points')).resolves.toBe('0');
    await writeFile(join(dataDir, 'go-US-001'), '');
    // No reload: the page polled and drew the iteration recorded meanwhile.
    await page.waitForSelector('figure[data-chart="outcomes"][data-points="1"]', {
      timeout: 20_000,
    });
    await writeFile(join(dataDir, 'go-US-002'), '');
    await writeFile(join(dataDir, 'go-US-003'), '');
    const ended = await run;
    expect(ended.exitCode, ended.all).toBe(0);
    await page.waitForSelector('body[data-live="false"]', { timeout: 10_000 });
    await expect(outcomes.getAttribute('data-points')).resolves.toBe(String(STORIES));
    await expect(page.locator('#status').textContent()).resolves.toContain(
      'no run in view is live',
    );
    await page.close();
  });

  describe('once the run has ended, with receipts', () => {
    beforeAll(async () => {
      const runs = jsonOf<{ runs: RunRecord[] }>(
        await runCli(['runs', '--json', '--data-dir', dataDir]),
      );
      runId = runs.runs[0]!.runId;
      iterations = await withReceipts(dataDir, runId);
    }, 30_000);

    it("the served page of one run draws every chart of the layout from the run's iterations", async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = pageErrors(page);
      await page.goto(`${url}?run=${runId}`);
      const drawn = await drawnCharts(page);
      await page.screenshot({ path: artefactPath('dashboard-run.png'), fullPage: true });
      expect(errors).toEqual([]);
      await expectTheLayout(page);
      expectTheRunDrawn(drawn, iterations);
      await page.close();
    });

    it('the page of every run, and of its project, draws the same iterations by time', async () => {
      for (const query of ['', '?project=Demo']) {
        const page = await browser.newPage();
        await page.goto(`${url}${query}`);
        const drawn = await drawnCharts(page);
        const outcomes = drawn.outcomes!;
        expect(outcomes.data[0]).toEqual(
          iterations.map((record) => Date.parse(record.endedAt!) / 1000).sort((a, b) => a - b),
        );
        expect(outcomes.raw[0]!.reduce((sum: number, value) => sum + (value ?? 0), 0)).toBe(
          STORIES,
        );
        await expect(page.locator(`#runs a[href="?run=${runId}"]`).count()).resolves.toBe(1);
        await expect(page.locator('#runs a[href="?project=Demo"]').count()).resolves.toBe(1);
        await page.close();
      }
      const elsewhere = await browser.newPage();
      await elsewhere.goto(`${url}?project=nobody`);
      await elsewhere.waitForSelector('body[data-ready="true"]');
      await expect(elsewhere.locator('figure[data-points="0"]').count()).resolves.toBe(
        DASHBOARD_CHARTS.length,
      );
      await elsewhere.close();
    });

    it('the written report draws the same with the network refused', async () => {
      const file = join(dataDir, 'report.html');
      const show = await runCli(['show', runId, '--html', file, '--data-dir', dataDir]);
      expect(show.exitCode, show.stderr).toBe(0);
      expect(show.stdout).toContain(`wrote ${file}`);

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const refused: string[] = [];
      await context.route('**/*', (route) => {
        if (route.request().url().startsWith('file:')) return route.continue();
        refused.push(route.request().url());
        return route.abort();
      });
      const page = await context.newPage();
      const errors = pageErrors(page);
      await page.goto(pathToFileURL(file).href);
      const drawn = await drawnCharts(page);
      await page.screenshot({ path: artefactPath('report-run.png'), fullPage: true });
      expect(refused).toEqual([]);
      expect(errors).toEqual([]);
      await expectTheLayout(page);
      expectTheRunDrawn(drawn, iterations);
      await expect(page.locator('#summary').textContent()).resolves.toContain(runId);
      const lines = iterations.flatMap((record) => record.receipt?.lines ?? []);
      await expect(page.locator('#receipts tbody tr').count()).resolves.toBe(lines.length);
      await context.close();
    });

    it('refuses --html with --iteration, writing nothing', async () => {
      const file = join(dataDir, 'refused.html');
      const show = await runCli([
        'show',
        runId,
        '--html',
        file,
        '--iteration',
        '1',
        '--data-dir',
        dataDir,
      ]);
      expect(show.exitCode).toBe(2);
      expect(show.stderr).toContain('--html');
    });

    it('refuses a port in use, saying how to choose another', async () => {
      const busy = new URL(url).port;
      const second = await runCli(['dashboard', '--port', busy, '--data-dir', dataDir]);
      expect(second.exitCode).toBe(4);
      expect(second.stderr).toContain(`port ${busy} is in use`);
    });

    it('stops on Ctrl-C (SIGINT), and its port is closed', async () => {
      dashboard.kill('SIGINT');
      const ended = await dashboard;
      // Ended by itself (128 + SIGINT, as a shell reports Ctrl-C), saying nothing more.
      expect(ended.exitCode).toBe(130);
      expect(ended.all?.trim().split('\n').at(-1)).toBe('stop with Ctrl-C');
      await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    });
  });
});

/**
 * An agent that does its story once the test writes `go-<story>` in `dir` (at most 60 s),
 * the writing agent's way (a file per story).
 */
function gatedAgent(dir: string): string {
  const go = `${dir}/go-$RALPH_STORY_ID`;
  return `cat > /dev/null; for i in $(seq 600); do [ -e "${go}" ] && break; sleep 0.1; done; echo done > "$RALPH_STORY_ID.txt"`;
}

/** Receipts on the run's iterations (two models), as the recording step stores them. */
async function withReceipts(dataDir: string, runId: string): Promise<IterationRecord[]> {
  const stack = await openLocalStack({ dataDir });
  try {
    const stored = await stack.deps.runs.listIterations(runId);
    return await Promise.all(
      stored.map((record) =>
        stack.deps.runs.saveIteration(
          {
            ...record,
            receipt: makeReceipt(record.iteration, record.taskId, [
              {
                role: 'agent',
                model: 'sonnet',
                inputTokens: 1000 * record.iteration,
                outputTokens: 100,
                costUsd: 0.01 * record.iteration,
              },
              { role: 'judge', model: 'haiku', inputTokens: 200, outputTokens: 20, costUsd: 0.001 },
            ]),
          },
          record.version,
        ),
      ),
    );
  } finally {
    await stack.close();
  }
}

/** The URL `ralph dashboard` printed once it listens. */
async function dashboardUrl(child: ReturnType<typeof ralphProcess>): Promise<string> {
  let printed = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`ralph dashboard did not start:\n${printed}`)),
      60_000,
    );
    child.all?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const found = /dashboard of the local store · (http:\/\/127\.0\.0\.1:\d+\/)/.exec(printed);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    void child.then(() => reject(new Error(`ralph dashboard ended:\n${printed}`)));
  });
}

function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/** What each chart drew, once the page says it is drawn. */
async function drawnCharts(page: Page): Promise<Record<string, Drawn>> {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return page.evaluate(() => {
    const charts = (globalThis as unknown as { ralphCharts: PageCharts }).ralphCharts;
    return Object.fromEntries(
      Object.entries(charts).map(([id, { plot, chart }]) => [
        id,
        {
          labels: plot.series.slice(1).map((series) => series.label),
          data: plot.data.map((values) => [...values]),
          raw: chart.values,
        },
      ]),
    );
  });
}

/** Every chart of the layout under its title, a canvas in each that has data. */
async function expectTheLayout(page: Page): Promise<void> {
  for (const spec of DASHBOARD_CHARTS) {
    const figure = page.locator(`figure[data-chart="${spec.id}"]`);
    await expect(figure.locator('h3').textContent()).resolves.toBe(spec.title);
    const points = Number(await figure.getAttribute('data-points'));
    await expect(figure.locator('canvas').count()).resolves.toBe(points > 0 ? 1 : 0);
  }
}

/** The charts of one run hold its iterations' values, read from the store. */
function expectTheRunDrawn(
  drawn: Record<string, Drawn>,
  iterations: readonly IterationRecord[],
): void {
  const numbers = iterations.map((record) => record.iteration);
  expect(drawn.outcomes!.data[0]).toEqual(numbers);
  expect(drawn.outcomes!.raw[0]).toEqual(iterations.map(() => 1));
  expect(drawn.stories!.data).toEqual([numbers, numbers.map((_, index) => index + 1)]);
  expect(drawn.durations!.data[1]).toEqual(iterations.map((record) => record.durations!.agentMs));
  expect(drawn['iteration-cost']!.data).toEqual([
    numbers,
    iterations.map((record) => record.receipt!.totalUsd),
  ]);
  expect(drawn['model-cost']!.labels).toEqual(['haiku', 'sonnet']);
  expect(drawn['model-cost']!.data).toEqual([
    numbers,
    iterations.map(() => 0.001),
    iterations.map((record) => 0.01 * record.iteration),
  ]);
  expect(drawn['model-tokens']!.data[3]).toEqual(
    iterations.map((record) => 1000 * record.iteration),
  );
}
