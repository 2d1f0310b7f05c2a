/**
 * The evaluation suite: runs the story writer on the fixed feedback in
 * fixtures/feedback/ and writes one story document per item (story-<feedback id>.json)
 * into $RALPH_EVAL_OUTPUT_DIR (default .ralph-eval), where ralph-cloud scores them.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFeedback } from '../src/feedback.js';
import { writeStory } from '../src/story-writer.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/feedback/', import.meta.url));
const outputDir = resolve(process.env.RALPH_EVAL_OUTPUT_DIR || '.ralph-eval');

await mkdir(outputDir, { recursive: true });
const names = (await readdir(FIXTURES)).filter((name) => name.endsWith('.json')).sort();
for (const name of names) {
  const feedback = parseFeedback(JSON.parse(await readFile(join(FIXTURES, name), 'utf8')), name);
  const story = writeStory(feedback);
  await writeFile(join(outputDir, `${story.id}.json`), `${JSON.stringify(story, null, 2)}\n`);
}
console.log(`wrote ${names.length} stories to ${outputDir}`);
