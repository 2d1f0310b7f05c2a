#!/usr/bin/env node
// The `ralph` CLI entry point (`npm run ralph -- <command>`; installed, its compiled
// dist/bin/ralph.js: npm run build).
import { main } from './cli/main.js';

// `ralph show RUN | head`: a reader that has seen enough closes the pipe. That ends the
// output, not the command with a stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

process.exitCode = await main(process.argv.slice(2));
