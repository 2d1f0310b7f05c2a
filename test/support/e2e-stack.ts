import { afterAll, beforeAll } from 'vitest';
import { openLocalStack, type LocalStack } from '../../local/local-stack.js';

/**
 * One in-memory local stack per test file: emulators on free ports, the real state
 * machine, handlers and runner; retry pauses shortened, cancel polled often.
 */
export function useLocalStack(): () => LocalStack {
  let stack: LocalStack | undefined;
  beforeAll(async () => {
    stack = await openLocalStack({ retryIntervalMs: 0, cancelPollMs: 100 });
  });
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the local stack is not open yet');
    return stack;
  };
}

/** An agent that implements whatever story it is given by writing `<story id>.txt`. */
export const WRITING_AGENT = 'cat > /dev/null; echo "done" > "$RALPH_STORY_ID.txt"';
