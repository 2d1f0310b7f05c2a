import { RalphError } from '../errors.js';

/**
 * A stored pattern-set version that cannot be used: its body is missing, is not JSON, does
 * not match `PatternSetSchema`, or is not the content its version item describes. `current`
 * raises it only when no earlier version can stand in; `get` and `rollback` raise it for
 * the version asked for.
 */
export class PatternSetCorruptError extends RalphError {
  readonly projectId: string;
  /** One line per version refused: `v3: body does not match ...`. */
  readonly problems: readonly string[];

  constructor(projectId: string, problems: readonly string[], options?: ErrorOptions) {
    super(`pattern set of project ${projectId} is unusable:\n  ${problems.join('\n  ')}`, {
      ...options,
      code: 'PATTERN_SET_CORRUPT',
    });
    this.name = 'PatternSetCorruptError';
    this.projectId = projectId;
    this.problems = problems;
  }
}
