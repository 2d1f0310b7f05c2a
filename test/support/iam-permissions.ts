import type { CfnElement, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';

/** A policy statement as the template holds it. */
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** The logical id of a construct's CloudFormation resource. */
export function logicalIdOf(stack: Stack, construct: IConstruct): string {
  return stack.getLogicalId(construct.node.defaultChild as CfnElement);
}

/**
 * Every permission the policies on a function's role grant, X-Ray's aside, one line per
 * action and resource with the statement's condition: `s3:GetObject bucket/runs/*\/summary.json`,
 * `s3:ListBucket bucket if StringLike s3:prefix runs/*`. Resources are written with the
 * names given for logical ids (`table`, `bucket`). Lines, not statements, because CDK's
 * policy minimisation merges statements that share actions or resources.
 *
 * @example
 * permissionsOf(template, stack, fn, { [logicalIdOf(stack, table)]: 'table' });
 */
export function permissionsOf(
  template: Template,
  stack: Stack,
  fn: lambda.IFunction,
  names: Readonly<Record<string, string>>,
): string[] {
  const policies = template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: logicalIdOf(stack, fn.role!) }]) },
  });
  return Object.values(policies)
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[])
    .flatMap((statement) => {
      const condition = statement.Condition ? ` if ${renderCondition(statement.Condition)}` : '';
      const effect = statement.Effect === 'Allow' ? '' : `${statement.Effect} `;
      return [statement.Action]
        .flat()
        .flatMap((action) =>
          [statement.Resource]
            .flat()
            .map((resource) => `${effect}${action} ${render(resource, names)}${condition}`),
        );
    })
    .filter((permission) => !/^(xray|logs):/.test(permission))
    .sort();
}

/** A resource: a plain string, or `Fn::GetAtt` / `Ref` / `Fn::Join` over named resources. */
function render(value: unknown, names: Readonly<Record<string, string>>): string {
  if (typeof value === 'string') return value;
  const intrinsic = value as {
    'Fn::GetAtt'?: [string, string];
    Ref?: string;
    'Fn::Join'?: [string, unknown[]];
  };
  const id = intrinsic['Fn::GetAtt']?.[0] ?? intrinsic.Ref;
  if (id !== undefined && names[id] !== undefined) return names[id];
  const join = intrinsic['Fn::Join'];
  if (join) return join[1].map((part) => render(part, names)).join(join[0]);
  return JSON.stringify(value);
}

function renderCondition(condition: NonNullable<Statement['Condition']>): string {
  return Object.entries(condition)
    .flatMap(([operator, keys]) =>
      Object.entries(keys).map(
        ([key, values]) => `${operator} ${key} ${[values].flat().sort().join(',')}`,
      ),
    )
    .join(' and ');
}

/** Whether an IAM resource pattern (`*` any characters, `?` one) matches `text`. */
export function globMatches(pattern: string, text: string): boolean {
  const source = pattern
    .split('')
    .map((char) =>
      char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`).test(text);
}
