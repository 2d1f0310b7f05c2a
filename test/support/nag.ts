import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** Unacknowledged cdk-nag AwsSolutions errors, as `rule at path` lines. */
export function nagErrors(scope: IConstruct): string[] {
  return new AwsSolutionsChecks()
    .validateScope(scope)
    .violations.filter((violation) => violation.severity === 'error')
    .flatMap((violation) =>
      violation.violatingResources.map((r) => `${violation.ruleName} at ${r.constructPath}`),
    );
}
