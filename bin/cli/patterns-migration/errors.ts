import { RalphError } from '../../../lambdas/core/errors.js';

/**
 * The migration lost or double-counted an entry: its report does not balance. This is a bug
 * in the migration, never a problem with the input, so nothing is written.
 */
export class MigrationUnbalancedError extends RalphError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options?: ErrorOptions) {
    super(`pattern migration does not balance:\n  ${problems.join('\n  ')}`, {
      ...options,
      code: 'MIGRATION_UNBALANCED',
    });
    this.name = 'MigrationUnbalancedError';
    this.problems = problems;
  }
}
