/**
 * The example's agent: a deterministic stand-in for Claude Code, not a model. Like any
 * command agent it reads the iteration prompt on stdin and changes the working copy; it
 * implements the story the prompt names by copying that story's prepared files from
 * `steps/`: the todo library, and the next improvement to the story writer that the
 * example's evaluation suite (eval/write-stories.ts) runs. US-002's first attempt has a
 * bug its own todo test catches; when the prompt carries the last failure, the agent
 * applies the fixed version instead.
 */
import { cp, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const STEPS = fileURLToPath(new URL('./steps/', import.meta.url));

const NOTES: Record<string, { summary: string; learnings: string[]; patterns: string[] }> = {
  'US-001': {
    summary:
      'Added the Todo type and addTodo with trimming and an empty-title check; the story writer now writes a title, "As a <role>, I want ..., so that ..." and the topic\'s testable acceptance criteria',
    learnings: [
      'Tests run with `tsx --test`; the typecheck gate covers src/ only',
      'The story writer recognises feedback by the topic cues in src/feedback-topics.ts',
      'Acceptance criteria name the function they test in backticks and what it returns',
    ],
    patterns: ['Todo lists are immutable: functions return a new array and never mutate'],
  },
  'US-002': {
    summary:
      'Added completeTodo and filterTodos; the story writer names the file, function and services each story belongs in',
    learnings: [
      'filterTodos: the filter names the state to keep (open = not done)',
      "A topic's technical area is '<file> (<function>)', which the area test checks",
    ],
    patterns: [],
  },
  'US-003': {
    summary:
      "Added summarise ('<done> of <total> done', 'nothing to do' when empty); the story writer keeps each story to one concern",
    learnings: [
      'Each story adds its own test file under test/',
      'Feedback that raises several topics becomes a story about the first; the rest are named as split out',
    ],
    patterns: [],
  },
  'US-004': {
    summary:
      'The story writer now says what goes wrong for the customer today: "Today I have to <pain>." in a paragraph after the story sentence',
    learnings: [
      'Each topic\'s pain completes "Today I have to ..."; feedback without a topic gets none',
    ],
    patterns: [],
  },
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

const prompt = await readStdin();
const storyId = /\b(US-\d{3})\b/.exec(prompt)?.[1];
if (!storyId) {
  console.error('scripted agent: the prompt names no story (US-###)');
  process.exit(1);
}
const retrying = /last failure/i.test(prompt);
// A story's files: what every attempt writes (`<story>/`), then what only this attempt
// writes (`<story>-first/` or `<story>-retry/`), so the attempts differ in the bug alone.
const attempt = (retrying ? [`${storyId}-retry`, `${storyId}-first`] : [`${storyId}-first`]).find(
  (name) => existsSync(join(STEPS, name)),
);
const layers = [storyId, attempt].filter(
  (name): name is string => name !== undefined && existsSync(join(STEPS, name)),
);
if (layers.length === 0) {
  console.error(`scripted agent: no prepared step for ${storyId}`);
  process.exit(1);
}

console.log(`scripted example agent (a deterministic stand-in, not a model): ${storyId}`);
console.log(retrying ? 'the prompt carries the last failure: applying the fix' : 'first attempt');
const written = new Set<string>();
for (const layer of layers) {
  for (const file of await listFiles(join(STEPS, layer))) written.add(file);
  await cp(join(STEPS, layer), process.cwd(), { recursive: true });
}
for (const file of [...written].sort()) console.log(`wrote ${file}`);

const notes = NOTES[storyId];
if (notes) {
  console.log(`<summary>${notes.summary}</summary>`);
  console.log(
    `<learnings>\n${notes.learnings.map((line) => `- ${line}`).join('\n')}\n</learnings>`,
  );
  if (notes.patterns.length > 0)
    console.log(
      `<codebase-patterns>\n${notes.patterns.map((line) => `- ${line}`).join('\n')}\n</codebase-patterns>`,
    );
}
