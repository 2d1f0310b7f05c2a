import { RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/**
 * Where the stack's alarms go: an SNS topic (subscribe to it to be told), encrypted with a
 * key of its own, since CloudWatch cannot publish to a topic under the AWS-managed SNS key.
 */
export class AlarmTopic extends Construct {
  public readonly topic: sns.Topic;
  /** The action an alarm takes to notify the topic. */
  public readonly action: cloudwatchActions.SnsAction;

  constructor(scope: Construct, id: string, props: { destroyOnRemoval?: boolean } = {}) {
    super(scope, id);
    const key = new kms.Key(this, 'Key', {
      description: 'ralph-cloud alarm topic',
      enableKeyRotation: true,
      removalPolicy: props.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    // CloudWatch alarms publish as the service: it needs the key to encrypt what it sends.
    key.grant(
      new iam.ServicePrincipal('cloudwatch.amazonaws.com'),
      'kms:Decrypt',
      'kms:GenerateDataKey*',
    );
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'ralph-cloud alarms',
      masterKey: key,
      enforceSSL: true,
    });
    this.action = new cloudwatchActions.SnsAction(this.topic);
  }
}
