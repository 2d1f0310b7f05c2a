import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitAll, copyTemplate, exampleStamp } from '../example-repository.js';
import type { Output } from '../output.js';
import { resolveRunInput } from '../run-input.js';
import { withSession, type GlobalOptions } from '../session.js';
import { startAndWatch } from './run.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/todo-app/', import.meta.url));

/**
 * `ralph example` (what `npm start` runs): a fresh copy of the todo-app repository, its
 * three-story prd.json and the scripted stand-in agent, run end to end on the local stack.
 */
export async function exampleCommand(options: GlobalOptions, output: Output): Promise<number> {
  const stamp = exampleStamp(new Date());
  const repo = resolve(options.dataDir, 'example', stamp);
  await prepareRepository(repo, stamp);
  // This package's own tsc and tsx, so that the example needs no install of its own.
  process.env.PATH = [...exampleToolBins(), process.env.PATH ?? ''].join(delimiter);
  const input = await resolveRunInput({ repo });
  return withSession(options, (session) =>
    startAndWatch(session, input, output, {
      agentLabel: 'scripted example agent (a deterministic stand-in, not a model)',
      note: `example repository: ${repo}`,
    }),
  );
}

/**
 * The example's agent and gates run `tsx` and `tsc`: dependencies of this package, whose
 * commands npm links into the `.bin` beside them (node_modules/.bin of the clone, or of the
 * installation, wherever that is).
 */
function exampleToolBins(): string[] {
  const require = createRequire(import.meta.url);
  const bins = ['tsx', 'typescript'].map((name) =>
    join(dirname(dirname(require.resolve(`${name}/package.json`))), '.bin'),
  );
  return [...new Set(bins)];
}

async function prepareRepository(repo: string, stamp: string): Promise<void> {
  await copyTemplate(join(EXAMPLE, 'template'), repo);
  // A project of its own per example run: pattern sets belong to a project and outlive its
  // runs (that is how later runs start from what earlier ones learned), and the example
  // shows the learning from nothing every time.
  const prdPath = join(repo, 'prd.json');
  const prd = JSON.parse(await readFile(prdPath, 'utf8')) as { project: string };
  prd.project = `${prd.project} example ${stamp}`;
  await writeFile(prdPath, `${JSON.stringify(prd, null, 2)}\n`);
  const config = JSON.parse(await readFile(join(EXAMPLE, 'ralph.config.json'), 'utf8')) as {
    agent: Record<string, unknown>;
  };
  config.agent.command = `tsx ${JSON.stringify(join(EXAMPLE, 'scripted-agent.ts'))}`;
  await writeFile(join(repo, 'ralph.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  await commitAll(repo, 'chore: todo-app skeleton');
}
