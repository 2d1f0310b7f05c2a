import { Argument, Command, Option } from 'commander';
import { collect, port, positiveInt } from './option-values.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { createOutput } from './output.js';
import { initCommand, type InitOptions } from './commands/init.js';
import { runCommand } from './commands/run.js';
import { runsCommand, type RunsOptions } from './commands/runs.js';
import { watchCommand } from './commands/watch.js';
import { FOLLOW_HELP } from './live/follow-flags.js';
import { RUN_STATUSES } from '../../lambdas/core/schemas/run.js';
import { statusCommand } from './commands/status.js';
import { showCommand } from './commands/show.js';
import { cancelCommand } from './commands/cancel.js';
import { resumeCommand } from './commands/resume.js';
import { pruneCommand, type PruneOptions } from './commands/prune.js';
import { validateCommand } from './commands/validate.js';
import { exampleCommand } from './commands/example.js';
import { exampleInvestigateCommand } from './commands/example-investigate.js';
import { addEval } from './add-eval.js';
import { serveCommand } from './commands/serve.js';
import { dashboardCommand } from './commands/dashboard.js';
import { hooksParseCommand, type HooksParseOptions } from './commands/hooks-parse.js';
import { ERROR_SOURCES, type ErrorSource } from '../../lambdas/core/schemas/error-event.js';
import { SENTRY_RESOURCES } from '../../lambdas/core/incidents/sentry-payloads.js';
import { hooksSendCommand, type HooksSendOptions } from './commands/hooks-send.js';
import type { HookSource } from '../../lambdas/core/shared/hook-auth/delivery.js';
import { describeHooksSend, setFromEnvironment } from './hooks/send-arguments.js';
import { addProjects } from './projects/add-projects.js';
import { addPatterns, addRules } from './learning/add-learning.js';
import { addLearning } from './learning/learning-command.js';
import { addShare } from './sharing/add-share.js';
import {
  endpointOption,
  type CommandContext,
  type ExitSink,
  type GlobalOptions,
} from './command-context.js';
import { DATA_DIR_ENV, defaultDataDir } from './data-dir.js';
import { RunConfigSchema } from '../../lambdas/core/schemas/config.js';

/** What a run gets for what its config leaves out, named in --help. */
const CONFIG_DEFAULTS = RunConfigSchema.parse({});

/** Adds one command (or one group of commands) to the program. */
export type { ExitSink } from './command-context.js';
type AddCommand = (program: Command, context: CommandContext) => void;

/** The `ralph` command line: one entry point over the same core and adapters as the Lambdas. */
export function buildProgram(setExit: ExitSink): Command {
  const program = new Command('ralph')
    .description(
      'Run Ralph loops (a fresh agent per iteration, memory in git, prd.json and progress.txt) on the local serverless stack (the same state machine, handlers and runner as the cloud) or, with --endpoint, through a Run API: a deployment or `ralph serve`.',
    )
    .addOption(
      new Option('--data-dir <dir>', 'where the local stack keeps its data (runs, workspaces)')
        .env(DATA_DIR_ENV)
        .default(defaultDataDir()),
    )
    .option('--json', 'print one JSON document for machines instead of text', false)
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError()
    .exitOverride();

  const globals = (): GlobalOptions => ({
    ...program.opts<GlobalOptions>(),
    // Suggested commands repeat a data dir the person named, not the default.
    dataDirGiven: program.getOptionValueSource('dataDir') !== 'default',
  });
  const context: CommandContext = { setExit, globals, out: () => createOutput(globals().json) };
  // In the order `ralph --help` lists them.
  const commands: AddCommand[] = [
    addInit,
    addRun,
    addRuns,
    addStatus,
    addShow,
    addCancel,
    addResume,
    addWatch,
    addPrune,
    addServe,
    addDashboard,
    addValidate,
    addEval,
    addPatterns,
    addRules,
    addLearning,
    addShare,
    addHooks,
    addProjects,
    addExample,
  ];
  for (const add of commands) add(program, context);
  return program;
}

function addInit(program: Command, { setExit, out }: CommandContext): void {
  program
    .command('init')
    .description(
      'write a starter prd.json and a ralph.config.json with gates found in the repository (package.json, pyproject.toml, Cargo.toml, go.mod, Makefile)',
    )
    .option('-r, --repo <path>', 'the git repository to set up', '.')
    .option('--force', 'replace prd.json and ralph.config.json when they exist', false)
    .action(async (options: InitOptions) => {
      setExit(await initCommand(options, out()));
    });
}

function addRun(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('run')
    .description(
      'start a run on a git repository and follow it to the end (locally, or through --endpoint)',
    )
    .option(
      '-r, --repo <path>',
      'the git repository to work in (with --endpoint of a deployment: its git URL)',
      '.',
    )
    .option(
      '-p, --prd <path>',
      'prd.json (default: <repo>/prd.json or <repo>/scripts/ralph/prd.json)',
    )
    .option(
      '-c, --config <path>',
      'ralph.config.json (default: <repo>/ralph.config.json if present)',
    )
    .option(
      '-a, --agent <command>',
      'agent command; reads the prompt on stdin (default: claude -p ...)',
    )
    .option(
      '-g, --gate <name=command>',
      "a blocking quality gate (repeatable; replaces the config gates) (default: the config's; none: nothing is verified)",
      collect,
    )
    .option(
      '-n, --max-iterations <n>',
      `stop after this many iterations (default: the config's limits.maxIterations, else ${CONFIG_DEFAULTS.limits.maxIterations})`,
      positiveInt,
    )
    .option(
      '--agent-timeout <seconds>',
      `kill the agent after this long (default: the config's agent.timeoutSeconds, else ${CONFIG_DEFAULTS.agent.timeoutSeconds})`,
      positiveInt,
    )
    .option('-f, --follow', FOLLOW_HELP, false)
    .addOption(endpointOption())
    .action(async (options: Parameters<typeof runCommand>[0]) => {
      setExit(await runCommand({ ...globals(), ...options }, out()));
    });
}

function addRuns(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('runs')
    .description('list stored runs, newest first')
    .option('-l, --limit <n>', 'how many', positiveInt, 20)
    .addOption(
      new Option('-s, --status <status>', 'only runs in this status').choices(RUN_STATUSES),
    )
    .option('--cursor <cursor>', 'the page after the one that printed this cursor')
    .addOption(endpointOption())
    .action(async (options: Omit<RunsOptions, keyof GlobalOptions>) => {
      setExit(await runsCommand({ ...globals(), ...options }, out()));
    });
}

function addStatus(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('status')
    .argument('<run>', 'run id')
    .description('where a run stands: status, stories, last failure')
    .addOption(endpointOption())
    .action(async (runId: string, options: { endpoint?: string }) => {
      setExit(await statusCommand(runId, { ...globals(), ...options }, out()));
    });
}

function addShow(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('show')
    .argument('<run>', 'run id')
    .description(
      'a run in detail (with its cost receipts and their sum), or one iteration (gates, commit, artefacts, receipt)',
    )
    .option('-i, --iteration <n>', 'one iteration', positiveInt)
    .option(
      '--artefact <name>',
      "print one artefact: the iteration's with --iteration (e.g. prompt.md, diff.patch, gates.json), else the run's (summary.json, manifest.json, request.json, convergence-proof.json, investigation-report.json)",
    )
    .option(
      '--html <file>',
      "write the run's report to <file>: one self-contained HTML page (charts, summary, receipts; nothing fetched when opened)",
    )
    .addOption(endpointOption())
    .action(
      async (
        runId: string,
        options: { iteration?: number; artefact?: string; html?: string; endpoint?: string },
      ) => {
        setExit(await showCommand(runId, { ...globals(), ...options }, out()));
      },
    );
}

function addCancel(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('cancel')
    .argument('<run>', 'run id')
    .description('stop a run: a running one at its next step (its agent too), a paused one at once')
    .addOption(endpointOption())
    .action(async (runId: string, options: { endpoint?: string }) => {
      setExit(await cancelCommand(runId, { ...globals(), ...options }, out()));
    });
}

function addResume(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('resume')
    .argument('<run>', 'run id')
    .description(
      'continue a paused run (or one whose process died) in a new segment; with --max-iterations, also one that stopped at its iteration limit or was cancelled',
    )
    .option(
      '-n, --max-iterations <n>',
      "the run's new iteration limit, greater than the iterations it has used",
      positiveInt,
    )
    .option('-f, --follow', FOLLOW_HELP, false)
    .addOption(endpointOption())
    .action(
      async (
        runId: string,
        options: { endpoint?: string; maxIterations?: number; follow?: boolean },
      ) => {
        setExit(await resumeCommand(runId, { ...globals(), ...options }, out()));
      },
    );
}

function addWatch(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('watch')
    .argument('<run>', 'run id')
    .description(
      'follow a run that goes on elsewhere (a deployment, ralph serve, another ralph process) to its end',
    )
    .option('-f, --follow', FOLLOW_HELP, false)
    .addOption(endpointOption())
    .action(async (runId: string, options: { endpoint?: string; follow?: boolean }) => {
      setExit(await watchCommand(runId, { ...globals(), ...options }, out()));
    });
}

function addPrune(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('prune')
    .description(
      'remove ended runs from the local store (records, artefacts) and the refs they left in their repositories',
    )
    .option(
      '--older-than <age>',
      'only runs that stopped longer ago than this: a number and s, m, h, d or w (0s: every ended run)',
      '30d',
    )
    .option('--dry-run', 'list what would go, delete nothing', false)
    .option('--include-paused', 'paused runs too (they could still be resumed)', false)
    // Parsed only to refuse it by name: a deployment's runs are not this command's to delete.
    .addOption(endpointOption().hideHelp())
    .action(async (options: Omit<PruneOptions, keyof GlobalOptions>) => {
      setExit(await pruneCommand({ ...globals(), ...options }, out()));
    });
}

function addServe(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('serve')
    .description(
      'serve the Run API on loopback over the local stack (SigV4 credential in <data dir>/serve.json)',
    )
    .option('--port <n>', 'the port to listen on (default: a free one)', positiveInt)
    .action(async (options: { port?: number }) => {
      setExit(await serveCommand({ ...globals(), ...options }, out()));
    });
}

function addDashboard(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('dashboard')
    .description(
      "serve the local store's charts on loopback: every run, ?run=ID or ?project=NAME; live runs refresh every 2 s",
    )
    .option('--port <n>', 'the port to listen on (0: a free one)', port, 0)
    .action(async (options: { port: number }) => {
      setExit(await dashboardCommand({ ...globals(), ...options }, out()));
    });
}

function addValidate(program: Command, { setExit, out }: CommandContext): void {
  program
    .command('validate')
    .argument('<file>', 'a prd.json or ralph.config.json')
    .description('check a prd.json or ralph.config.json and say exactly what is wrong')
    .addOption(new Option('--kind <kind>', 'what the file is').choices(['prd', 'config']))
    .action(async (file: string, options: { kind?: 'prd' | 'config' }) => {
      setExit(await validateCommand(file, options, out()));
    });
}

/** `ralph patterns migrate`: the group and its one command. */
/**
 * `ralph hooks …`: deliveries from error trackers and alarms (Sentry, New Relic,
 * CloudWatch). Each subcommand is one `AddHooksCommand` in the list.
 */
function addHooks(program: Command, context: CommandContext): void {
  const hooks = program
    .command('hooks')
    .description('webhook deliveries from Sentry, New Relic and CloudWatch alarms');
  const subcommands: AddHooksCommand[] = [addHooksParse, addHooksSend];
  for (const add of subcommands) add(hooks, context);
}

/** Adds one subcommand to the `hooks` group. */
type AddHooksCommand = (hooks: Command, context: CommandContext) => void;

function addHooksParse(hooks: Command, { setExit, out }: CommandContext): void {
  hooks
    .command('parse')
    .addArgument(new Argument('<source>', 'who sent it').choices(ERROR_SOURCES))
    .argument('<file>', 'the delivery body as the sender posts it (JSON)')
    .description(
      'print the error events a delivery becomes (or why it is none), as the hooks normalise it; nothing is started or written',
    )
    .option(
      '--resource <name>',
      `sentry only, required: the Sentry-Hook-Resource header it came with (${SENTRY_RESOURCES.join(', ')})`,
    )
    .action(async (source: ErrorSource, file: string, options: HooksParseOptions) => {
      setExit(await hooksParseCommand(source, file, options, out()));
    });
}

function addHooksSend(hooks: Command, { setExit, globals, out }: CommandContext): void {
  describeHooksSend(hooks.command('send'))
    .option(
      '--timeout <seconds>',
      'per attempt; 5xx and no answer are retried, 4 attempts in all',
      positiveInt,
      10,
    )
    .action(async (source: HookSource, file: string, options: HooksSendOptions, send: Command) => {
      const fromEnvironment = setFromEnvironment(send);
      setExit(
        await hooksSendCommand(
          source,
          file,
          { ...options, fromEnvironment, dataDir: globals().dataDir },
          out(),
        ),
      );
    });
}

function addExample(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('example')
    .description(
      'run a bundled example end to end: the todo app (what `npm start` does), or `investigate`: a Sentry issue to a draft pull request on a local GitHub double (`npm start -- investigate`)',
    )
    .addArgument(
      new Argument('[name]', 'which example')
        .choices(['todo-app', 'investigate'])
        .default('todo-app'),
    )
    .action(async (name: 'todo-app' | 'investigate') => {
      const command = name === 'investigate' ? exampleInvestigateCommand : exampleCommand;
      setExit(await command(globals(), out()));
    });
}
