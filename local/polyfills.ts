/**
 * aws-local-stepfunctions 3 calls `Promise.withResolvers`, which Node 22 has and Node 20
 * lacks. Lambda runs Node 22; the local stack and the tests also run on Node 20.
 */
interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const promiseConstructor = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };

if (typeof promiseConstructor.withResolvers !== 'function') {
  promiseConstructor.withResolvers = <T>(): Resolvers<T> => {
    let resolve!: Resolvers<T>['resolve'];
    let reject!: Resolvers<T>['reject'];
    const promise = new Promise<T>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    return { promise, resolve, reject };
  };
}

// The AWS SDK warns once per process that it will need Node 22 in 2027; the local stack says
// which Node it runs on where it matters, so the warning is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export {};
