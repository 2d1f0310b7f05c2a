/**
 * The example's agent: a deterministic stand-in for Claude Code, not a model. Like any
 * command agent it reads the iteration prompt on stdin and changes the working copy; it
 * implements the story the prompt names by copying that story's prepared files from
 * `steps/`. US-002's first attempt has a bug its own test catches; when the prompt carries
 * the last failure, the agent applies the fixed version instead.
 */
import { cp, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const STEPS = fileURLToPath(new URL('./steps/', import.meta.url));

const NOTES: Record<string, { summary: string; learnings: string[]; patterns: string[] }> = {
  'US-001': {
    summary: 'Added the Todo type and addTodo with trimming and an empty-title check',
    learnings: ['Tests run with `tsx --test`; the typecheck gate covers src/ only'],
    patterns: ['Todo lists are immutable: functions return a new array and never mutate'],
  },
  'US-002': {
    summary: 'Added completeTodo and filterTodos',
    learnings: ['filterTodos: the filter names the state to keep (open = not done)'],
    patterns: [],
  },
  'US-003': {
    summary: "Added summarise ('<done> of <total> done', 'nothing to do' when empty)",
    learnings: ['Each story adds its own test file under test/'],
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
const candidates = retrying
  ? [`${storyId}-retry`, `${storyId}-first`, storyId]
  : [`${storyId}-first`, storyId];
const step = candidates.find((name) => existsSync(join(STEPS, name)));
if (!step) {
  console.error(`scripted agent: no prepared step for ${storyId}`);
  process.exit(1);
}

console.log(`scripted example agent (a deterministic stand-in, not a model): ${storyId}`);
console.log(retrying ? 'the prompt carries the last failure: applying the fix' : 'first attempt');
const files = await listFiles(join(STEPS, step));
await cp(join(STEPS, step), process.cwd(), { recursive: true });
for (const file of files) console.log(`wrote ${file}`);

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
