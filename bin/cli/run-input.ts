import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { parseJsonText, parseOrThrow } from '../../lambdas/core/shared/validation.js';
import {
  CLAUDE_CODE_COMMAND,
  RunConfigSchema,
  type RunConfig,
} from '../../lambdas/core/schemas/config.js';
import { PrdSchema, type Prd } from '../../lambdas/core/schemas/prd.js';
import { EXIT } from './exit-codes.js';
import { CliError } from './errors.js';
import { checkCleanTree, checkCommands, checkRepository, runnable } from './preflight.js';

export interface RunFlags {
  repo: string;
  prd?: string;
  config?: string;
  agent?: string;
  gate?: string[];
  maxIterations?: number;
  agentTimeout?: number;
}

export interface ResolvedRunInput {
  repoPath: string;
  /** Relative to the repository when prd.json is inside it; absolute otherwise. */
  prdPath: string;
  prd: Prd;
  config: RunConfig;
  /** How the agent was chosen, for the first line of output. */
  agentSource: 'flag' | 'config' | 'claude on PATH' | "the deployment's default";
}

const PRD_CANDIDATES = ['prd.json', 'scripts/ralph/prd.json'];
const CONFIG_NAME = 'ralph.config.json';

/**
 * Reads and validates everything `ralph run` needs before anything is written: prd.json,
 * ralph.config.json and the flags that override it; for a run on this machine, also the
 * repository and the programs its agent and gates start (preflight.ts).
 */
export async function resolveRunInput(
  flags: RunFlags,
  options: { agentRunsHere: boolean } = { agentRunsHere: true },
): Promise<ResolvedRunInput> {
  const repoPath = resolve(flags.repo);
  if (options.agentRunsHere) await checkRepository(repoPath);
  const prdFile = flags.prd ? resolve(flags.prd) : await firstExisting(repoPath, PRD_CANDIDATES);
  if (!prdFile)
    throw new CliError(
      `no prd.json found in ${repoPath} (looked for ${PRD_CANDIDATES.join(', ')}); pass --prd`,
      EXIT.invalidInput,
    );
  const prd = parseOrThrow(PrdSchema, await readJson(prdFile), prdFile);

  const configFile = flags.config
    ? resolve(flags.config)
    : await firstExisting(repoPath, [CONFIG_NAME]);
  const fileConfig = configFile ? await readJson(configFile) : {};
  const config = parseOrThrow(
    RunConfigSchema,
    applyFlags(fileConfig, flags),
    configFile ?? 'configuration from flags',
  );

  const agentSource: ResolvedRunInput['agentSource'] = flags.agent
    ? 'flag'
    : config.agent.command
      ? 'config'
      : options.agentRunsHere
        ? 'claude on PATH'
        : "the deployment's default";
  // A deployment's agent runs in its container, whose default is Claude Code: what this
  // machine has on its PATH says nothing about it.
  if (!config.agent.command && options.agentRunsHere) {
    if (!(await runnable('claude', repoPath)))
      throw new CliError(
        'no agent: pass --agent "<command that reads the prompt on stdin>", set agent.command in ralph.config.json, or install Claude Code (`claude` on the PATH)',
        EXIT.invalidInput,
      );
    config.agent.command = CLAUDE_CODE_COMMAND;
  }

  if (options.agentRunsHere) await checkCommands(config, repoPath);

  const fromRepo = relative(repoPath, prdFile);
  const prdPath = fromRepo.startsWith('..') || isAbsolute(fromRepo) ? prdFile : fromRepo;
  if (options.agentRunsHere) await checkCleanTree(repoPath, prdPath, 'run again');
  return { repoPath, prdPath, prd, config, agentSource };
}

/** Flags win over the file; the merged object is validated as one. */
function applyFlags(fileConfig: unknown, flags: RunFlags): unknown {
  if (typeof fileConfig !== 'object' || fileConfig === null || Array.isArray(fileConfig))
    return fileConfig;
  const config = structuredClone(fileConfig) as Record<string, Record<string, unknown> | unknown>;
  const section = (name: string): Record<string, unknown> => {
    const current = config[name];
    const value = typeof current === 'object' && current !== null ? { ...(current as object) } : {};
    config[name] = value;
    return value as Record<string, unknown>;
  };
  if (flags.agent) section('agent').command = flags.agent;
  if (flags.agentTimeout !== undefined) section('agent').timeoutSeconds = flags.agentTimeout;
  if (flags.maxIterations !== undefined) section('limits').maxIterations = flags.maxIterations;
  if (flags.gate && flags.gate.length > 0) config.gates = flags.gate.map(parseGateFlag);
  return config;
}

/** `--gate test="npm test"` → `{ name: 'test', command: 'npm test' }`. */
export function parseGateFlag(value: string): { name: string; command: string } {
  const at = value.indexOf('=');
  if (at <= 0)
    throw new InvalidInputError('--gate', [
      `"${value}": expected name=command, e.g. test="npm test"`,
    ]);
  return { name: value.slice(0, at), command: value.slice(at + 1) };
}

export async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, EXIT.invalidInput);
  }
  return parseJsonText(text, path);
}

async function firstExisting(dir: string, names: readonly string[]): Promise<string | undefined> {
  for (const name of names) {
    const path = join(dir, name);
    try {
      if ((await stat(path)).isFile()) return path;
    } catch {
      // not there: try the next candidate
    }
  }
  return undefined;
}
