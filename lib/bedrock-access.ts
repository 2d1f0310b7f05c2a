import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';

/**
 * Lets `grantee` invoke Anthropic's models on Bedrock, directly or through a cross-region
 * inference profile of this account and region, and acknowledges the two wildcards with
 * why they are needed. `construct` is where the grant's cdk-nag findings are reported.
 */
export function grantAnthropicModels(
  grantee: iam.IGrantable,
  construct: IConstruct,
  actions: readonly string[] = ['bedrock:InvokeModel'],
): void {
  const stack = Stack.of(construct);
  iam.Grant.addToPrincipal({
    grantee,
    actions: [...actions],
    resourceArns: [
      `arn:${stack.partition}:bedrock:*::foundation-model/anthropic.*`,
      `arn:${stack.partition}:bedrock:${stack.region}:${stack.account}:inference-profile/*`,
    ],
  });
  Validations.of(construct).acknowledge(
    {
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/anthropic.*]',
      reason:
        'Only Anthropic models; any region, because a cross-region inference profile calls the model in the region it routes to.',
    },
    {
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:<AWS::Region>:<AWS::AccountId>:inference-profile/*]',
      reason:
        "Inference profiles of this account and region: the run's config chooses the model, so the profile is not known when the stack is deployed.",
    },
  );
}
