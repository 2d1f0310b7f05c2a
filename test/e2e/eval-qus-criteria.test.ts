import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationOutcome } from '../../lambdas/core/steps/evaluate-artefacts.js';
import { jsonOf, useCliScratch } from '../support/cli.js';
import { asStoryDocument, ustaiStory } from '../support/ustai-stories.js';

/** Four human-labelled UStAI stories: three with QUS defects, one clean. */
const STORIES = [
  'As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.',
  'As a business owner, I want to explore the new market opportunities and revenue streams that Autonomous Vehicles (AVs) can offer, so that I can expand my business and stay competitive in the industry.',
  'As a healthcare administrator, I am concerned about the computational cost of diagnostic tools. I want a system that uses incremental learning to reduce processing time for heart disease prediction.',
  "As an endocrinologist, I want access to my patients' predicted blood glucose trends, so I can adjust their treatment plans proactively.",
];

/** `ralph eval --mode dual` compares the judge and the cheap mode per QUS criterion. */
describe('CLI: ralph eval (QUS criteria)', () => {
  const scratch = useCliScratch('ralph-eval-qus-');
  let savedKey: string | undefined;
  let stories: string;
  beforeAll(async () => {
    savedKey = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    stories = join(scratch.dataDir, 'stories');
    await mkdir(stories);
    for (const text of STORIES) {
      const story = asStoryDocument(ustaiStory(text));
      await writeFile(join(stories, `${story.id}.json`), JSON.stringify(story));
    }
  });
  afterAll(() => {
    if (savedKey !== undefined) process.env.ANTHROPIC_API_KEY = savedKey;
  });

  it('prints the judge’s and the cheap mode’s defects per criterion, with kappa', async () => {
    // Act
    const result = await scratch.ralph('eval', stories, '--mode', 'dual');

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toContain('offline judge (a deterministic stand-in');
    expect(result.stdout).toContain(
      "QUS criteria, judge vs cheap defects on 4 stories (κ: Cohen's kappa",
    );
    expect(result.stdout).toMatch(/│ QUS criterion +│ judge defects │ cheap defects │ both │ κ +│/);
    // The offline judge finds two conjunctions, one in brackets and one second sentence.
    expect(result.stdout).toMatch(/│ atomic +│ 2 +│ \d+ +│ \d+ +│ (?:−?\d\.\d\d|—) +│/);
    expect(result.stdout).toMatch(/│ minimal +│ 2 +│ \d+ +│ \d+ +│ (?:−?\d\.\d\d|—) +│/);
    expect(result.stdout).toMatch(/│ problem-oriented +│ 2 +│/);
    expect(result.stdout).not.toMatch(/│ uniform /);
  });

  it('gives the same comparison in --json, with the counts of each cell', async () => {
    const outcome = jsonOf<EvaluationOutcome>(
      await scratch.ralph('eval', stories, '--mode', 'dual', '--json'),
    );
    const atomic = outcome.dual?.criteria.find((row) => row.criterion === 'atomic');
    expect(atomic).toMatchObject({ stories: 4, judgeDefects: 2 });
    expect(atomic!.both + atomic!.judgeOnly + atomic!.cheapOnly + atomic!.neither).toBe(4);
    const judged = outcome.expensive?.final.results.map((judged) => judged.result);
    for (const result of judged ?? [])
      expect(result.status === 'ok' && result.criteria).toHaveLength(7);
  });
});
