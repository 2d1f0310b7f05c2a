#!/usr/bin/env node
// The investigate example's agent: a scripted stand-in for Claude Code, not a model. It
// reads the investigation prompt on stdin and finds where the error happened: the innermost
// frame of the application's stack, or, for a payload without frames (a Sentry issue), the
// culprit (`total(src/cart.mjs)`) and the first line of that file reading the property the
// error names. When that line reads the property off an argument the error says was
// undefined (`reading 'percent'` on `discount.percent`), it defaults the argument and says
// so in the analysis. Anything else gets an honest low-confidence analysis and no fix.
//
// Its behaviour switches, for the example's and the tests' scenarios (the route's
// `config.agent.env`):
// - INVESTIGATOR_FIRST_PASS=low: the first pass answers low confidence without a fix (the
//   runner then runs a second pass, which finds it).
// - INVESTIGATOR_FIX=wrong-then-right: the fix drops the discount altogether (the app's
//   test fails), and the correction pass, given the gate output, writes the right one.
// - INVESTIGATOR_FIX=wrong: the same wrong fix, and no correction (it stays failing).
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
const pass = Number(process.env.RALPH_INVESTIGATION_PASS ?? '1');
const firstPass = process.env.INVESTIGATOR_FIRST_PASS ?? 'find';
const fixMode = process.env.INVESTIGATOR_FIX ?? 'right';

/** @param {Record<string, unknown>} analysis */
async function writeAnalysis(analysis) {
  await mkdir(dirname(analysisPath), { recursive: true });
  await writeFile(analysisPath, `${JSON.stringify(analysis, null, 2)}\n`);
}

/**
 * Says why, writes a low-confidence analysis without a fix, and ends the process (callers
 * `throw` what it never returns, so that the type checker knows the script stops there).
 *
 * @param {string} line
 * @param {Record<string, unknown>} analysis
 * @returns {Promise<never>}
 */
async function giveUp(line, analysis) {
  say(line);
  await writeAnalysis({ confidence: 'low', ...analysis });
  return process.exit(0);
}

const property = /reading '([A-Za-z_$][\w$]*)'/.exec(prompt)?.[1];
const where = locate(prompt);
if (!where || !property)
  throw await giveUp('no application frame, culprit or property in the error: nothing to go on', {
    rootCause: 'The error names no application frame this stand-in can read.',
    suggestedNextSteps: ['Reproduce the error locally and read the stack by hand'],
  });

const { file, fn } = where;
const lines = (await readFile(file, 'utf8')).split('\n');
/** `name.property`, read off an argument; `right` and `wrong` are the two fixes of it. */
const reads = (/** @type {string} */ name) => `${name}.${property}`;
const right = (/** @type {string} */ name) => `(${name}?.${property} ?? 0)`;
const wrong = (/** @type {string} */ name) => `0 * ${right(name)}`;

if (kind === 'correction') await correct();

if (pass === 1 && firstPass === 'low')
  throw await giveUp('first pass: looking around only (INVESTIGATOR_FIRST_PASS=low), no fix yet', {
    rootCause: `Something in ${fn} (${file}) reads .${property} of undefined; which value is not clear yet.`,
    filesExamined: [file],
    suggestedNextSteps: [`Read ${file} line by line for the .${property} read`],
  });

const access = new RegExp(`\\b([A-Za-z_$][\\w$]*)\\.${property}\\b`);
const index =
  where.line === undefined ? lines.findIndex((text) => access.test(text)) : where.line - 1;
const found = access.exec(lines[index] ?? '');
const at = `${file}:${index + 1}`;
if (!found)
  throw await giveUp(`${at} reads no .${property}: not the pattern this stand-in knows`, {
    rootCause: `${fn} at ${at} fails, but not by reading .${property} of an argument.`,
    filesExamined: [file],
    suggestedNextSteps: [`Find where .${property} is read on the way to ${fn}`],
  });

const name = found[1] ?? '';
const fixed = fixMode === 'right' ? right(name) : wrong(name);
lines[index] = (lines[index] ?? '').replace(reads(name), fixed);
await writeFile(file, lines.join('\n'));
say(`fixed ${at}: ${reads(name)} is now ${fixed} when ${name} is missing`);
await writeAnalysis({
  rootCause: `${fn} (${at}) reads ${reads(name)}, but callers pass no ${name} when there is none, so ${name} is undefined.`,
  confidence: 'high',
  reasoning: `The error reads '${property}' of undefined in ${fn}; ${at} dereferences ${name}.`,
  filesExamined: [file],
  patternsDiscovered: [`optional arguments such as ${name} are not defaulted in ${dirname(file)}/`],
  suggestedNextSteps: [],
  fixSummary: `${fn} treats a missing ${name} as no ${name} (${property} 0)`,
});

/** The correction pass: puts the right fix where the wrong one is, or leaves the fix as it is. */
async function correct() {
  const wrongAt = lines.findIndex((text) => /0 \* \(([A-Za-z_$][\w$]*)\?\./.test(text));
  const wrongName = /0 \* \(([A-Za-z_$][\w$]*)\?\./.exec(lines[wrongAt] ?? '')?.[1];
  if (fixMode !== 'wrong-then-right' || !wrongName) {
    say('a correction needs judgement this stand-in does not have: leaving the fix as it is');
    process.exit(0);
  }
  lines[wrongAt] = (lines[wrongAt] ?? '').replace(wrong(wrongName), right(wrongName));
  await writeFile(file, lines.join('\n'));
  say(`corrected ${file}:${wrongAt + 1}: the gate output shows the discount was dropped; kept it`);
  const given = JSON.parse(await readFile(analysisPath, 'utf8'));
  await writeAnalysis({
    ...given,
    fixSummary: `${fn} treats a missing ${wrongName} as no ${wrongName} (${property} 0) and keeps a given one`,
  });
  process.exit(0);
}

/**
 * Where the error happened: the innermost application frame
 * (`- \`src/cart.mjs:4\` in \`total\``), else the culprit (`- Where: \`total(src/cart.mjs)\``).
 *
 * @returns {{ file: string, fn: string, line?: number } | undefined}
 */
/** @param {string} text */
function locate(text) {
  const section = text.split('### Stack: the application')[1] ?? '';
  const frame = /`([^`:]+):(\d+)(?::\d+)?`(?: in `([^`]+)`)?/.exec(section);
  if (frame?.[1]) return { file: frame[1], line: Number(frame[2]), fn: frame[3] ?? 'the function' };
  const culprit = /^- Where: `([^`(]+)\(([^`)]+)\)`/m.exec(text);
  if (culprit?.[1] && culprit[2]) return { file: culprit[2], fn: culprit[1] };
  return undefined;
}
