/**
 * Cheap-mode throughput: user-story documents scored per second on one thread.
 *
 *   npx tsx bench/cheap-mode.bench.ts                 # table on stdout
 *   npx tsx bench/cheap-mode.bench.ts --json          # one JSON document on stdout
 *   npx tsx bench/cheap-mode.bench.ts --patterns 5000 --rounds 9
 *
 * Inputs are generated deterministically (seeded PRNG, so every run scores the same
 * data): a pattern set of N active patterns (realistic keywords and phrases from a
 * user-story vocabulary, ~10% with a regex) and a corpus of ~2 KB user stories: a story
 * sentence as QUS reads it (mostly Connextra, with conjunctions, asides and other
 * templates at a real backlog's rates: cheap-mode/stories.ts) and acceptance criteria on
 * one topic (a dozen domain terms among general English, Zipf-distributed), with inflected
 * forms that keywords must not match. The corpus goes through JSON, as artefacts reach
 * the evaluate-cheap step from S3: strings built by concatenation would be measured
 * slower than any real artefact.
 *
 * Measured, in the same process and on the same corpus:
 *   compiled       `evaluateCheap` with `compilePatternSet` (one automaton pass per artefact)
 *                  and the QUS detectors on (the default settings: production)
 *   detectors off  the same with `qus: { detectors: [] }`: what the detectors cost
 *   baseline       `evaluateCheap` with `compileReferencePatterns` (one regex per pattern)
 * Each round scores artefacts for at least --min-ms milliseconds, on one thread; the
 * median over rounds is reported with its spread (min–max), per wall-clock second and per
 * second of the process's CPU time (which leaves out the time other processes had the
 * core). The target is checked against the detectors-on wall-clock median. The load average is printed:
 * on a shared machine it explains most of the spread. Both must agree on every document
 * (checked after the compiled path is timed, so that its timing is not skewed: see below).
 *
 * Then a backlog (--backlog, 10,000 one-sentence stories, 1% near-duplicates) scored at once
 * with `evaluateBacklog`, as the evaluation steps and `ralph eval` do: its CPU time per
 * round (median and spread; target under a second) beside the same backlog with uniform and
 * unique off, and the unique detector beside comparing every pair (timed on
 * --all-pairs-subset stories, scaled by pairs); then once through the CLI
 * (`ralph eval FOLDER --mode cheap --json`, a child process; --skip-cli leaves it out).
 *
 * The parts live in bench/cheap-mode/: inputs.ts, stories.ts and vocabulary.ts, throughput.ts,
 * corpus.ts (the agreement check and the corpus figures), backlog.ts, backlog-timing.ts,
 * cli-timing.ts, options.ts, report.ts and backlog-report.ts.
 */
import { compilePatternSet } from '../lambdas/core/cheap/compile.js';
import { compileReferencePatterns } from '../lambdas/core/cheap/reference-matcher.js';
import type { Artefact } from '../lambdas/core/schemas/evaluation.js';
import { QusSettingsSchema } from '../lambdas/core/schemas/qus.js';
import { measureBacklog } from './cheap-mode/backlog-measure.js';
import { checkAgreement, regexFigures } from './cheap-mode/corpus.js';
import { makeDocuments, makePatternSet } from './cheap-mode/inputs.js';
import { parseOptions } from './cheap-mode/options.js';
import { cheapModeReport, textLines } from './cheap-mode/report.js';
import { assertScoresUsed, measure, NOT_MEASURED, time } from './cheap-mode/throughput.js';

const options = parseOptions();
const set = makePatternSet(options.patterns, options.seed);
const documents = JSON.parse(
  JSON.stringify(makeDocuments(options.documents, options.seed + 1)),
) as Artefact[];
const compiled = time(() => compilePatternSet(set));
const reference = time(() => compileReferencePatterns(set));

// The compiled path is timed first, while the evaluator has only ever seen the compiled
// matcher, as in production. Once the reference has run through the same code, the JIT
// compiles it for both matchers: timed after the check, medians were 41–52k/s on a
// machine where they are 54–62k/s timed before it.
const fast = measure(documents, compiled.value, options);
const withoutDetectors = compilePatternSet({
  ...set,
  qus: QusSettingsSchema.parse({ detectors: [] }),
});
const detectorsOff = measure(documents, withoutDetectors, options);

// Then both must agree on every document (a disagreement voids the run); this also gives
// the corpus statistics.
const corpus = checkAgreement(documents, compiled.value, reference.value);
const regexes = regexFigures(set);

const naive = options.skipBaseline ? NOT_MEASURED : measure(documents, reference.value, options);
const backlog = measureBacklog(set, options);

const report = cheapModeReport(options, {
  corpus,
  regexes,
  compileMs: { compiled: compiled.ms, reference: reference.ms },
  compiled: fast,
  detectorsOff,
  baseline: naive,
  backlog,
});
assertScoresUsed();

if (options.json) console.log(JSON.stringify(report, null, 2));
else for (const line of textLines(report)) console.log(line);
