/**
 * Where the local stack keeps its data (the store, the artefacts, the runs' workspaces, the
 * example's repositories): `--data-dir`, else `$RALPH_DATA_DIR`, else a per-user state
 * directory, so that `ralph` leaves nothing in the directory it is run from.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { shellWord } from '../../lambdas/core/shared/shell-word.js';

export const DATA_DIR_ENV = 'RALPH_DATA_DIR';

/**
 * The per-user default: `$XDG_STATE_HOME/ralph-cloud`, else `~/.local/state/ralph-cloud`
 * (the XDG base directory spec's state directory: data that outlives a run but is not the
 * person's documents); on macOS `~/Library/Application Support/ralph-cloud`. A relative
 * XDG_STATE_HOME is ignored, as the spec says.
 *
 * @example
 * defaultDataDir({ XDG_STATE_HOME: '/srv/state' }, 'linux', '/home/ada'); // '/srv/state/ralph-cloud'
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const xdgState = env.XDG_STATE_HOME;
  if (xdgState && isAbsolute(xdgState)) return join(xdgState, 'ralph-cloud');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'ralph-cloud');
  return join(home, '.local', 'state', 'ralph-cloud');
}

/** The data dir as parsed, and whether the person named it (flag or environment). */
export interface DataDirChoice {
  dataDir: string;
  /** False when it is the per-user default. */
  dataDirGiven?: boolean;
}

/**
 * What a command the CLI suggests needs to reach the same data dir: ` --data-dir <dir>`
 * when one was given, else nothing (the default is the same for the next command).
 *
 * @example
 * `ralph status ${runId}${dataDirFlag(options)}`;
 */
export function dataDirFlag({ dataDir, dataDirGiven }: DataDirChoice): string {
  return dataDirGiven ? ` --data-dir ${shellWord(dataDir)}` : '';
}
