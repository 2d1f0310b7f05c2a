/** Exit codes scripts can rely on (also listed in `ralph --help` and the README). */
export const EXIT = {
  /** The command did what was asked; for `run`/`resume`, every story passes. */
  ok: 0,
  /** The run ended without completing: max iterations, aborted, cancelled or failed. */
  runNotCompleted: 1,
  /** Bad input: an invalid prd.json / config, or a bad option. Nothing was written. */
  invalidInput: 2,
  /** The run is paused: `ralph resume RUN` continues it. */
  paused: 3,
  /**
   * No such run, or the run's state does not allow the command; or the local store cannot
   * be used as it is (damaged, or in use by another process); or a shared bundle was
   * quarantined (`ralph share import`: unsigned, changed, or signed by a key not trusted).
   */
  notPossible: 4,
  /** Something unexpected broke (the message says what). */
  internal: 70,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0   done (run/resume: every story passes its gates)
  1   the run ended without completing (max iterations, aborted, cancelled, failed)
  2   invalid input (prd.json, config or options); nothing was written
  3   the run is paused; \`ralph resume RUN\` continues it
  4   no such run, or its state does not allow the command; or the local
      store is damaged or in use (the message says what to do); or a shared
      bundle was quarantined (share import: the reason is printed)
  70  internal error
  130 stopped with Ctrl-C (143 SIGTERM, 129 SIGHUP); \`ralph resume RUN\` continues the run`;
