/**
 * What the run-store test files share: fresh run ids, and DynamoRunStores on the emulator
 * whose client carries a fault (test/support/dynamo-faults.ts).
 */
import { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import type { Emulators } from '../../local/emulators.js';
import { emulatorDynamoClient, loseFirstReply, shortPages } from './dynamo-faults.js';

/**
 * Every test uses its own run id: the table is shared by the whole file (each file has
 * its own emulator, and its own copy of this counter).
 */
let runCounter = 0;
export function nextRunId(label: string): string {
  runCounter += 1;
  return `${label}-${runCounter}`;
}

/**
 * A store whose client loses the reply to its first `commandName` request: the write
 * reaches the table, and the SDK's retry of it then fails on its own condition.
 */
export function storeLosingFirstReply(emulators: Emulators, commandName: string) {
  const lossy = emulatorDynamoClient(emulators, 4);
  const putAttempts = loseFirstReply(lossy, commandName);
  return {
    lossyStore: new DynamoRunStore({ client: lossy, tableName: emulators.tableName }),
    putAttempts,
    close: () => lossy.destroy(),
  };
}

/** A store whose Query pages hold at most `pageSize` items, so that paging is exercised. */
export function storeWithSmallPages(emulators: Emulators, pageSize: number) {
  const paged = emulatorDynamoClient(emulators);
  shortPages(paged, pageSize);
  return {
    pagedStore: new DynamoRunStore({ client: paged, tableName: emulators.tableName }),
    close: () => paged.destroy(),
  };
}
