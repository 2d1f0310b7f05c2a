/**
 * Every number the cheap evaluator uses, each with the reason it has that value. The
 * user-story numbers are the design document's (`cheap_mode_evaluator.py` in
 * shared/design/dual-mode-evaluation.md), kept as written; the change numbers and the
 * pattern numbers are ours.
 */

// ---------------------------------------------------------------------------------------
// Scale

/** The gestalt scale both modes share, so that their gap means something. */
export const GESTALT_MIN = 1;
export const GESTALT_MAX = 5;
/** `rawScore` is the heuristics' weighted score on the design's 0–5 scale (`raw_score`). */
export const RAW_SCORE_MAX = 5;
/**
 * The heuristic fraction used when there are no heuristics to apply (a document type
 * without a rubric, or every weight zero): the middle of the scale claims nothing.
 */
export const NEUTRAL_FRACTION = 0.5;
/** A heuristic earns its reason above this score, as `ac_score > 0.5` in the design. */
export const REASON_THRESHOLD = 0.5;
/**
 * Within this many points of either end of the scale, the gestalt approaches the end
 * instead of being clamped to it: a quarter of a rating step leaves the middle of the scale
 * exactly linear, and at two decimals a defect still shows up to about a point beyond the end.
 */
export const SOFT_BAND = 0.25;
/** Scores are rounded to two decimals, as the design's `round(gestalt, 2)`. */
export const SCORE_DECIMALS = 2;

// ---------------------------------------------------------------------------------------
// User stories (the design's numbers)

/**
 * A good title is shorter than this, in code points. The design says "< 80 chars" twice
 * (the heuristics table and the docstring) while its code rejects only `len > 80`; we keep
 * the stated rule, so an 80-character title fails.
 */
export const TITLE_LENGTH_LIMIT = 80;
/** An action-oriented title starts with one of these (lower-cased prefix, as written). */
export const ACTION_WORDS = ['add', 'fix', 'update', 'improve', 'enable', 'implement'] as const;

/**
 * Acceptance-criteria count buckets: none, too few, too many, ideal, otherwise. Their
 * bounds (2, 10, 3–7 by default) are a pattern set's `storyHeuristics.acceptanceCriteria`
 * (`AcceptanceCriteriaBoundsSchema`), so a migrated v1 file can bring its own.
 */
export const AC_SCORE_NONE = 0;
export const AC_SCORE_FEW = 0.2;
export const AC_SCORE_MANY = 0.3;
export const AC_SCORE_IDEAL = 1;
export const AC_SCORE_OTHER = 0.6;

/** Technical area: a known path of a known repository, the repository alone, a file-like path, anything else. */
export const TECH_SCORE_KNOWN_PATH = 1;
export const TECH_SCORE_KNOWN_REPO = 0.5;
export const TECH_SCORE_FILE_LIKE = 0.7;
export const TECH_SCORE_VAGUE = 0.2;
export const TECH_SCORE_NONE = 0;

/** A description states user value when it contains one of these (lower-cased substring). */
export const VALUE_PHRASES = [
  'user can',
  'users will',
  'allows',
  'enables',
  'improves',
  'reduces',
  'saves',
  'prevents',
] as const;

/**
 * Scope: a description of 50–2000 code points, and neither too few nor too many acceptance
 * criteria (the bounds above: 2–10 by default).
 */
export const SCOPE_MIN_DESCRIPTION = 50;
export const SCOPE_MAX_DESCRIPTION = 2000;

// ---------------------------------------------------------------------------------------
// Changes (ours)

/**
 * Relative weight of each change heuristic (they sum to 5, as the story weights do). The
 * gates are the only objective evidence the change works, so they count double.
 */
export const CHANGE_WEIGHTS = { gates: 2, tests: 1, diffSize: 1, spread: 1 } as const;

/** No gates ran: nothing was verified, so neither reward nor punish. */
export const GATES_SCORE_NONE_RAN = 0.5;
/** A blocking gate failed: the change does not count. */
export const GATES_SCORE_BLOCKING_FAILED = 0;
/** Blocking gates passed but an advisory one failed (lint warnings, coverage dip). */
export const GATES_SCORE_ADVISORY_FAILED = 0.7;
export const GATES_SCORE_ALL_PASSED = 1;

/**
 * Changed lines (added + removed). Review studies (SmartBear / Cisco) find that defect
 * detection falls off past 200–400 lines, and a Ralph story is meant to fit one agent
 * context: up to 200 lines is a small change, up to 400 still reviewable, beyond 1,000 a
 * sprawl. An empty diff did nothing and scores 0.
 */
export const DIFF_LINES_SMALL = 200;
export const DIFF_LINES_MEDIUM = 400;
export const DIFF_LINES_LARGE = 1000;

/**
 * Files touched. One story usually needs a module, its test and a wiring point or two:
 * up to 5 files is focused, up to 10 tolerable, beyond 20 a sprawl.
 */
export const FILES_FOCUSED = 5;
export const FILES_MODERATE = 10;
export const FILES_SPRAWLING = 20;

/** Scores of the two size buckets above the best one, and of nothing at all. */
export const SIZE_SCORE_BEST = 1;
export const SIZE_SCORE_SECOND = 0.6;
export const SIZE_SCORE_THIRD = 0.3;
export const SIZE_SCORE_WORST = 0;

// ---------------------------------------------------------------------------------------
// Learned patterns (ours)

/**
 * Gestalt points per unit of pattern weight: a weight-1 pattern moves the score 0.3, so
 * five of them (a handful) move it 1.5, and a single weight-2 pattern (0.6) already
 * exceeds the 0.5 gap tolerance: one learned pattern can close a gap on its own.
 */
export const PATTERN_POINTS_PER_WEIGHT = 0.3;
/**
 * The patterns' net effect is capped at ±1.5 points: with hundreds of patterns, many may
 * fire together, and the heuristics must keep a say (they span 4 points).
 */
export const PATTERN_ADJUSTMENT_CAP = 1.5;

/** A user regex longer than this is refused: learned regexes are short, and cost grows with length. */
export const MAX_REGEX_SOURCE_LENGTH = 500;
/**
 * A regex is only run when one of its required literals occurs in the text. Literals
 * shorter than this occur nearly everywhere (and would make the automaton report at
 * almost every character) unless they are digits or punctuation, rare in prose; a regex
 * without a usable literal is run on every artefact instead.
 */
export const MIN_PREFILTER_LITERAL_LENGTH = 3;
/**
 * Above this many cells (states × alphabet), the automaton keeps sparse transitions
 * instead of a full table: 4 Mi Int32 cells is 16 MiB, small beside a Lambda's memory,
 * and 1,000 English patterns need under a million.
 */
export const MAX_DENSE_CELLS = 1 << 22;
/**
 * A regex whose required literal can sit within this many positions of the match start
 * is checked by anchored (sticky) attempts at those positions only; a wider or unbounded
 * range costs one search through the text instead.
 */
export const MAX_ANCHORED_ATTEMPTS = 8;
/**
 * A regex that is a finite set of at most this many strings (`as an? (admin|owner)`: 4)
 * is found by the automaton directly; beyond, the set costs more states than it saves.
 */
export const MAX_EXACT_STRINGS = 32;
/**
 * How far back the matcher walks over the characters a regex can hold before a literal
 * of unbounded offset (the letters of `[A-Z]+-\d+`) to find where a match could start.
 * A word or an identifier is far shorter; past this, the whole text is searched instead.
 */
export const MAX_PREFIX_RUN = 64;
