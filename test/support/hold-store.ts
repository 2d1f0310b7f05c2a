/**
 * A second ralph process for tests: opens the local stack on the data dir given as its
 * argument (so it owns the store, as a running `ralph run` would) and holds it until
 * SIGTERM.
 */
import { openLocalStack } from '../../local/local-stack.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: hold-store.ts <data dir>');
const stack = await openLocalStack({ dataDir });
process.stdout.write(`holding ${dataDir} (owner: ${stack.ownsStore})\n`);
process.on('SIGTERM', () => {
  void stack.close().then(() => process.exit(0));
});
setInterval(() => undefined, 60_000);
