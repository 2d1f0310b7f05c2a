import { basename, join, resolve } from 'node:path';
import Table from 'cli-table3';
import {
  detectGates,
  type GateDetection,
} from '../../../lambdas/core/ralph/starter/detect-gates.js';
import { starterConfig } from '../../../lambdas/core/ralph/starter/starter-config.js';
import { starterPrd } from '../../../lambdas/core/ralph/starter/starter-prd.js';
import { serializePrd } from '../../../lambdas/core/ralph/prd.js';
import type { Prd } from '../../../lambdas/core/schemas/prd.js';
import type { Output } from '../output.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { exists, writeAtomically } from '../file-writes.js';
import { checkGitDirectory } from '../preflight.js';
import { readRepositoryFiles } from '../repository-files.js';
import { tableStyle } from '../table-style.js';

export interface InitOptions {
  repo: string;
  /** Overwrite prd.json and ralph.config.json when they exist. */
  force?: boolean;
}

const PRD_FILE = 'prd.json';
const CONFIG_FILE = 'ralph.config.json';
const NO_GATES = `no gates found: a run will verify nothing; add one to ${CONFIG_FILE}`;
/** Where `ralph run` also looks for a prd.json: a new one at the top would be read instead. */
const OTHER_PRD = 'scripts/ralph/prd.json';

/**
 * `ralph init`: writes a starter prd.json and a ralph.config.json whose gates come from the
 * repository's manifests, and says what it chose and why. Nothing is written when either
 * file (or a prd.json `ralph run` would read instead) exists, unless `--force`.
 */
export async function initCommand(options: InitOptions, output: Output): Promise<number> {
  const repoPath = resolve(options.repo);
  await checkGitDirectory(repoPath);
  if (!options.force)
    for (const name of [PRD_FILE, CONFIG_FILE, OTHER_PRD])
      if (await exists(join(repoPath, name)))
        throw new CliError(
          `${join(repoPath, name)} already exists: edit it, or pass --force to replace ${name === OTHER_PRD ? `it with a new ${PRD_FILE}` : 'it'}`,
          EXIT.invalidInput,
        );

  const detection = detectGates(await readRepositoryFiles(repoPath));
  const config = starterConfig(detection.gates);
  const prd = starterPrd(basename(repoPath));
  await writeAtomically(join(repoPath, PRD_FILE), serializePrd(prd));
  await writeAtomically(join(repoPath, CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);

  for (const line of initReport(repoPath, prd, detection)) output.line(line);
  output.data({
    repo: repoPath,
    files: { prd: join(repoPath, PRD_FILE), config: join(repoPath, CONFIG_FILE) },
    config,
    gates: detection.gates,
    ecosystems: detection.ecosystems,
    notes: detection.notes,
    ...(detection.gates.length === 0 ? { warning: NO_GATES } : {}),
  });
  return EXIT.ok;
}

function initReport(repoPath: string, prd: Prd, detection: GateDetection): string[] {
  const lines = [
    `wrote ${join(repoPath, PRD_FILE)}: project "${prd.project}", branch ${prd.branchName}, one example story to replace with yours`,
  ];
  const { gates, ecosystems, notes } = detection;
  if (gates.length === 0) {
    lines.push(
      `wrote ${join(repoPath, CONFIG_FILE)} with no gates`,
      '',
      `!! ${NO_GATES}${ecosystems.length > 0 ? '' : ' (no package.json, pyproject.toml, Cargo.toml, go.mod or Makefile here)'}`,
      '!! e.g. "gates": [{ "name": "test", "command": "<your test command>" }]',
    );
  } else {
    lines.push(
      `wrote ${join(repoPath, CONFIG_FILE)} with ${gates.length} gate${gates.length === 1 ? '' : 's'} (found: ${ecosystems.join(', ')}):`,
    );
    const table = new Table({ head: ['gate', 'command', 'because'], style: tableStyle() });
    for (const gate of gates) table.push([gate.name, gate.command, gate.because]);
    lines.push(table.toString());
  }
  for (const note of notes) lines.push(`note: ${note}`);
  lines.push(
    '',
    `next: edit ${PRD_FILE} (your stories) and ${CONFIG_FILE} (check the gates), commit them, then \`ralph run --repo ${repoPath}\``,
  );
  return lines;
}
