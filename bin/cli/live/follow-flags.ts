import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';

/** `--follow`'s line in `--help` (run, resume, watch). */
export const FOLLOW_HELP =
  "also print the agent's output as it comes, indented between the iteration lines (Claude Code's stream-json as short lines); local stack only: refused with --endpoint (the agent's output is then in each iteration's transcript.jsonl) and with --json";

/**
 * Refuses `--follow` where it cannot work, before anything is started: under `--json`
 * (stdout is one document for machines), and with `--endpoint` (a deployment's agent runs in
 * its own container, whose output reaches the store only as each iteration's
 * transcript.jsonl, once the agent has ended).
 */
export function checkFollow(options: {
  follow?: boolean;
  json?: boolean;
  endpoint?: string;
}): void {
  if (!options.follow) return;
  if (options.json)
    throw new CliError(
      "--follow prints the agent's output for people, and --json one document for machines: use one or the other",
      EXIT.invalidInput,
    );
  if (options.endpoint)
    throw new CliError(
      "--follow reads the agent's output where the local runner writes it (under --data-dir); through --endpoint (or RALPH_ENDPOINT) the agent runs elsewhere, and its output is stored once each iteration's agent has ended: leave --follow out, and `ralph show RUN --iteration N --artefact transcript.jsonl` shows it (a run of `ralph serve` on this machine: `ralph watch RUN --follow --data-dir <its data dir>`)",
      EXIT.invalidInput,
    );
}
