import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationOutcome } from '../../lambdas/core/steps/evaluate-artefacts.js';
import { jsonOf, runCli } from '../support/cli.js';

/** Real stories from the UStAI fixture (A1US2Ge, A1US5Ll) and one clean story. */
const STORIES = [
  'As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.',
  'As a business owner, I want to explore the new market opportunities and revenue streams that Autonomous Vehicles (AVs) can offer, so that I can expand my business and stay competitive in the industry.',
  'As an accountant, I want CSV exports of the ledger, so that I close the month in a day.',
];

/** `ralph eval` on one story per line: every story's QUS defects, with the words that show them. */
describe("CLI: ralph eval shows each story's defects", () => {
  let scratch: string;
  let file: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-eval-defects-'));
    file = join(scratch, 'backlog.txt');
    await writeFile(file, `# our backlog\n${STORIES.join('\n')}\n\n`);
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('carries defects [{criterion, evidence}] beside the gestalt in --json', async () => {
    const result = await runCli(['eval', file, '--mode', 'cheap', '--json']);

    expect(result.exitCode, result.stderr).toBe(0);
    const { cheap } = jsonOf<EvaluationOutcome>(result);
    expect(cheap?.map(({ artefactId, defects }) => ({ artefactId, defects }))).toEqual([
      {
        artefactId: 'line-2',
        defects: [
          { criterion: 'atomic', evidence: 'uses AI and connected vehicles' },
          // Two of the three stories state their ends with "so that": the backlog's template.
          { criterion: 'uniform', evidence: 'no ends (backlog: so that)' },
        ],
      },
      {
        artefactId: 'line-3',
        defects: [
          { criterion: 'atomic', evidence: 'market opportunities and revenue streams' },
          { criterion: 'minimal', evidence: '(AVs)' },
        ],
      },
      { artefactId: 'line-4', defects: [] },
    ]);
    const [first, second, clean] = cheap!.map((entry) => entry.gestalt);
    expect(clean).toBeGreaterThan(Math.max(first!, second!));
  });

  it('shows them in the text output, without colour codes off a terminal', async () => {
    const result = await runCli(['eval', file, '--mode', 'cheap']);

    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('defects (cheap)');
    expect(result.stdout).toContain('minimal: "(AVs)"');
    expect(result.stdout).toContain('atomic: "uses AI and connected');
    expect(result.stdout).toContain('uniform: "no ends (backlog: so');
    expect(result.stdout).not.toContain('\u001b[');
  });
});
