import type { Context } from 'aws-lambda';

/** A Lambda context for a handler invoked in-process, a minute from its timeout. */
export function lambdaContext(functionName = 'ralph-test'): Context {
  const deadline = Date.now() + 60_000;
  const nothing = () => undefined;
  return {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: `request-${Date.now()}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'in-process',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: nothing,
    fail: nothing,
    succeed: nothing,
  };
}
