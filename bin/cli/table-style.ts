/**
 * The style of every table the CLI prints: grey borders on a terminal, and no colour codes
 * at all when `NO_COLOR` is set or stdout is not a terminal (a pipe, a file, CI).
 *
 * @example
 * new Table({ head: ['#', 'story'], style: tableStyle() });
 */
export function tableStyle(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): { head: string[]; border: string[] } {
  const colour = stream.isTTY === true && (env.NO_COLOR ?? '') === '';
  return { head: [], border: colour ? ['grey'] : [] };
}
