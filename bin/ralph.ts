#!/usr/bin/env node
// The `ralph` CLI entry point (`npm run ralph -- <command>`, or `bin/ralph.js` when installed).
import { main } from './cli/main.js';

process.exitCode = await main(process.argv.slice(2));
