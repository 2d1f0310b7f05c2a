/**
 * Probes: every subprocess (git, the agent's shell) and every port call (RunStore,
 * ArtefactStore), timed, to show where the overhead goes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type * as ChildProcessModule from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type {
  RunRequest,
  RunResult,
  StreamClosed,
  StreamHandlers,
  StreamRequest,
} from '../../agent/process/spawner.js';
import type { LocalStack } from '../../local/local-stack.js';
import { SpawnServer } from '../../local/spawn-server/spawn-server.js';
import type { Interval } from './loop-steps.js';

export interface SpawnRecord extends Interval {
  /** `git <subcommand>`, or the program name. */
  label: string;
}

export interface PortCallRecord extends Interval {
  /** `runs.getRun`, `artefacts.put`, ... */
  label: string;
  /**
   * Made by another port call, in its async context (a refused put reading the stored
   * object back); calls that merely overlap in time are not nested.
   */
  nested: boolean;
}

/** Every subprocess timed since {@link probeSubprocesses}, in the order they ended. */
export const spawns: SpawnRecord[] = [];
/** Every port call timed on a stack passed to {@link probePorts}, in the order they ended. */
export const portCalls: PortCallRecord[] = [];

/**
 * Wraps child_process.spawn (execa's entry point) so that each subprocess is timed from
 * spawn to exit, and SpawnServer.run, through which git runs. `syncBuiltinESMExports`
 * makes ES-module importers (execa) see the wrapper.
 */
export function probeSubprocesses(): void {
  const childProcess = createRequire(import.meta.url)(
    'node:child_process',
  ) as typeof ChildProcessModule;
  const original = childProcess.spawn;
  const wrapped = (...args: unknown[]): ChildProcessModule.ChildProcess => {
    const start = performance.now();
    const child = Reflect.apply(original, childProcess, args) as ChildProcessModule.ChildProcess;
    const file = String(args[0]);
    const argv = Array.isArray(args[1]) ? (args[1] as unknown[]).map(String) : [];
    const label = file === 'git' ? `git ${gitSubcommand(argv)}` : file;
    child.once('exit', () => spawns.push({ label, start, end: performance.now() }));
    return child;
  };
  childProcess.spawn = wrapped as typeof original;
  syncBuiltinESMExports();
  probeSpawnServer();
}

/**
 * git, the agent and the gates run from the local stack's spawn server
 * (local/spawn-server/spawn-server.ts): timed per request.
 */
function probeSpawnServer(): void {
  const serverStream = SpawnServer.prototype.stream;
  SpawnServer.prototype.stream = function timedStream(
    this: SpawnServer,
    request: StreamRequest,
    handlers?: StreamHandlers,
  ) {
    const start = performance.now();
    const reply = Reflect.apply(serverStream, this, [request, handlers]) as Promise<StreamClosed>;
    const record = () => spawns.push({ label: request.file, start, end: performance.now() });
    reply.then(record, record);
    return reply;
  };
  const serverRun = SpawnServer.prototype.run;
  SpawnServer.prototype.run = function timedRun(this: SpawnServer, request: RunRequest) {
    const start = performance.now();
    const label = request.file === 'git' ? `git ${gitSubcommand(request.args)}` : request.file;
    const reply = Reflect.apply(serverRun, this, [request]) as Promise<RunResult>;
    const record = () => spawns.push({ label, start, end: performance.now() });
    reply.then(record, record);
    return reply;
  };
}

/** The git subcommand, past any `-c key=value` options. */
export function gitSubcommand(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '-c' || arg === '-C') i += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return '?';
}

/** Set inside a port call: a port call made within it is nested. */
const insidePortCall = new AsyncLocalStorage<true>();

/**
 * Times every method of the stack's RunStore and ArtefactStore. The handlers (through
 * `deps`) and the runner (through the stack's closure) share these very instances, so an
 * own property on the instance sees every call.
 */
export function probePorts(stack: LocalStack): void {
  const targets: [string, object][] = [
    ['runs', stack.deps.runs],
    ['artefacts', stack.deps.artefacts],
  ];
  for (const [name, target] of targets) {
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(target)).filter(
      (key) => key !== 'constructor' && typeof Reflect.get(target, key) === 'function',
    );
    for (const method of methods) {
      const original = Reflect.get(target, method) as (...args: unknown[]) => unknown;
      const label = `${name}.${method}`;
      Reflect.set(target, method, async (...args: unknown[]) => {
        const start = performance.now();
        const nested = insidePortCall.getStore() === true;
        try {
          return await insidePortCall.run(true, () => Reflect.apply(original, target, args));
        } finally {
          portCalls.push({ label, nested, start, end: performance.now() });
        }
      });
    }
  }
}
