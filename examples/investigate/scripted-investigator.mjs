#!/usr/bin/env node
// The investigate example's agent: a scripted stand-in for Claude Code, not a model. It
// reads the investigation prompt on stdin, takes the innermost frame of the application's
// stack, and when that line reads a property of an argument the error says was undefined
// (`reading 'percent'` on `discount.percent`), it defaults the argument and says so in the
// analysis. Anything else gets an honest low-confidence analysis and no fix.
import process from 'node:process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** @param {string} line */
const say = (line) => process.stdout.write(`${line}\n`);
say('scripted investigator: a deterministic stand-in, not a model');

let prompt = '';
for await (const chunk of process.stdin) prompt += chunk;
const analysisPath = process.env.RALPH_ANALYSIS_PATH ?? '.ralph/analysis.json';
const kind = process.env.RALPH_INVESTIGATION_KIND ?? 'analysis';

/** @param {Record<string, unknown>} analysis */
async function writeAnalysis(analysis) {
  await mkdir(dirname(analysisPath), { recursive: true });
  await writeFile(analysisPath, `${JSON.stringify(analysis, null, 2)}\n`);
}

if (kind === 'correction') {
  say('a correction needs judgement this stand-in does not have: leaving the fix as it is');
  process.exit(0);
}

// The application's frames come first, innermost first: `- \`src/cart.mjs:4\` in \`total\``.
const section = prompt.split('### Stack: the application')[1] ?? '';
const frame = /`([^`:]+):(\d+)(?::\d+)?`(?: in `([^`]+)`)?/.exec(section);
const property = /reading '([A-Za-z_$][\w$]*)'/.exec(prompt)?.[1];
if (!frame || !property) {
  say('no application frame or property in the error: nothing to go on');
  await writeAnalysis({
    rootCause: 'The error names no application frame this stand-in can read.',
    confidence: 'low',
    suggestedNextSteps: ['Reproduce the error locally and read the stack by hand'],
  });
  process.exit(0);
}

const [, file = '', lineText = '0', fn = 'the function'] = frame;
const lines = (await readFile(file, 'utf8')).split('\n');
const index = Number(lineText) - 1;
const line = lines[index] ?? '';
const access = new RegExp(`\\b([A-Za-z_$][\\w$]*)\\.${property}\\b`).exec(line);
if (!access) {
  say(`${file}:${lineText} reads no .${property}: not the pattern this stand-in knows`);
  await writeAnalysis({
    rootCause: `${fn} at ${file}:${lineText} fails, but not by reading .${property} of an argument.`,
    confidence: 'low',
    filesExamined: [file],
    suggestedNextSteps: [`Find where .${property} is read on the way to ${fn}`],
  });
  process.exit(0);
}

const name = access[1];
lines[index] = line.replace(access[0], `(${name}?.${property} ?? 0)`);
await writeFile(file, lines.join('\n'));
say(`fixed ${file}:${lineText}: ${name}.${property} now defaults to 0 when ${name} is missing`);
await writeAnalysis({
  rootCause: `${fn} (${file}:${lineText}) reads ${name}.${property}, but callers pass no ${name} when there is none, so ${name} is undefined.`,
  confidence: 'high',
  reasoning: `The innermost application frame is ${file}:${lineText}; its line dereferences ${name}, and the error reads '${property}' of undefined.`,
  filesExamined: [file],
  patternsDiscovered: [`optional arguments such as ${name} are not defaulted in ${dirname(file)}/`],
  suggestedNextSteps: [],
  fixSummary: `${fn} treats a missing ${name} as no ${name} (${property} 0)`,
});
