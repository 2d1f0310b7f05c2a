/**
 * The layers of the code, checked on every `npm test` (`npm run deps`). docs/architecture.md
 * draws them. Lower layers never import higher ones, so folders cannot import each other in
 * a loop; no file imports itself through others either.
 *
 * lambdas/core, lowest first (each may import only those before it):
 *   schemas → errors → shared → tool-output, ralph, incidents, prompts → cheap, judge, gap →
 *   calibration → control → investigate → patterns → learning → sharing → costs → observability → loop → steps → runs → projects → intake
 * then lambdas/ports.ts (and learning-ports.ts, metrics-ports.ts, sharing-ports.ts), lambdas/adapters, lambdas/api, lambdas/handlers, agent, local, bin. agent/ and
 * local/ are layered the same way inside (see layerRules).
 */

/** Core folders, lowest first: a folder may import only those before it (and itself). */
const CORE_LAYERS = [
  'schemas',
  'errors',
  'shared',
  'tool-output',
  'ralph',
  // Error events from Sentry, New Relic and CloudWatch: sender payloads → one error model.
  'incidents',
  'prompts',
  'cheap',
  'judge',
  'gap',
  // Measuring the cheap mode against human labels (kappa, AUC) and fitting its detectors'
  // settings on them: it scores with cheap/ and reads labelled CSV files.
  'calibration',
  'control',
  // The investigate task kind: the pass kept, the run context, the gates compared, its
  // prompts (it reads the agent transcript's result event), and the words and figures of
  // its pull request, issue comment and report.
  'investigate',
  'patterns',
  // Learning across runs: run hints, project rules, the cross-loop registry (pure), and
  // what a plan injects; the loop reads it, the steps store it.
  'learning',
  // Learning shared across accounts: the DSSE envelope of a bundle (PAE, making, opening).
  'sharing',
  // What an iteration cost: the agent's session and the model calls priced into a receipt,
  // and the budgets held against the receipts' sum.
  'costs',
  // The metrics a recorded iteration and an ended run give (over the catalogue in schemas/), and the dashboards' layout.
  'observability',
  'loop',
  'steps',
  'runs',
  // Project routes: which repository an error of a sender's project is investigated in.
  'projects',
  // The hooks' intake: deliveries → error groups → batches → investigate runs.
  'intake',
];

/** The path of a core layer: a folder, or the one root file (errors.ts). */
const corePath = (layer) =>
  layer === 'errors' ? '^lambdas/core/errors\\.ts$' : `^lambdas/core/${layer}/`;

/**
 * One rule per layer of `base`: nothing a layer imports comes from a layer above it. With
 * `root`, the files directly in `base` sit above every folder (entry points), so no folder
 * imports them.
 */
const layered = (base, layers, pathOf = (layer) => `^${base}/${layer}/`) => [
  ...layers.map((layer, index) => ({
    name: `${base.replaceAll('/', '-')}-layer-${layer}`,
    comment: `${base}/${layer} imports only from the layers below it (${layers.slice(0, index).join(', ') || 'none'})`,
    severity: 'error',
    from: { path: pathOf(layer) },
    to: {
      path: `^${base}/`,
      pathNot: [pathOf(layer), ...layers.slice(0, index).map(pathOf)],
    },
  })),
];

/** Files directly in `base` are its entry points: no folder below imports them. */
const entryPointsOnTop = (base) => ({
  name: `${base}-entry-points-on-top`,
  comment: `the files directly in ${base}/ compose its folders; no folder imports them`,
  severity: 'error',
  from: { path: `^${base}/[^/]+/` },
  to: { path: `^${base}/[^/]+\\.m?[jt]s$` },
});

const layerRules = [
  ...layered('lambdas/core', CORE_LAYERS, corePath),
  // The runner: processes, git, the working copy, the checks (gates, suite), the stages.
  // An investigation (agent/investigate) reuses the runner's stages: it sits above them.
  ...layered('agent', ['process', 'git', 'working-copy', 'checks', 'runner', 'investigate']),
  entryPointsOnTop('agent'),
  // The local stack: the agents' live transcripts, loopback listening, the offline judge, the
  // model server that serves it, the GitHub REST double (using the model server's HTTP
  // plumbing), the spawn server, the Run API's HTTP server, the Step Functions protocol endpoint.
  ...layered('local', [
    'live-transcripts',
    'loopback',
    'offline-judge',
    'model-server',
    'github-double',
    'spawn-server',
    'api-server',
    'sfn-endpoint',
  ]),
  entryPointsOnTop('local'),
];

/** A rule: nothing under `from` imports anything under `to`. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

/** Libraries: pure computations that never see a store, a port or the loop state. */
// Every layer between shared/ and steps/.
const LIBRARIES = CORE_LAYERS.slice(
  CORE_LAYERS.indexOf('tool-output'),
  CORE_LAYERS.indexOf('steps'),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no file imports itself through others',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-in-layers',
      comment: 'every file of lambdas/core is in one of the layers',
      severity: 'error',
      from: { path: '^lambdas/core/', pathNot: CORE_LAYERS.map(corePath) },
      to: {},
    },
    ...layerRules,
    {
      name: 'schemas-import-only-schemas',
      comment: 'core/schemas holds every persisted shape and imports nothing of ours but schemas',
      severity: 'error',
      from: { path: '^lambdas/core/schemas/' },
      to: { pathNot: ['^lambdas/core/schemas/', '(^|/)node_modules/zod/'] },
    },
    forbid(
      'incidents-import-only-schemas-errors-shared',
      'core/incidents reads sender payloads into the error model: it needs schemas, errors and shared, no library beside it',
      '^lambdas/core/incidents/',
      '^lambdas/core/(tool-output|ralph)/',
    ),
    {
      name: 'libraries-see-no-ports',
      comment:
        'a library never sees a store, a port or the loop state: only core/steps composes them with ports',
      severity: 'error',
      from: { path: `^lambdas/core/(${LIBRARIES.join('|')})/` },
      to: {
        path: [
          '^lambdas/(learning-|metrics-|sharing-)?ports\\.ts$',
          '^lambdas/core/schemas/loop-state\\.ts$',
        ],
      },
    },
    {
      name: 'core-is-pure',
      comment: 'the core imports no AWS SDK, no CDK, no file system, no processes, no network',
      severity: 'error',
      from: { path: '^lambdas/(core/|(learning-|metrics-|sharing-)?ports\\.ts$)' },
      to: {
        path: [
          '(^|/)node_modules/(@aws-sdk|@smithy|aws-cdk-lib|constructs|@anthropic-ai|@middy|@aws-lambda-powertools)/',
        ],
      },
    },
    {
      name: 'core-uses-no-io-builtins',
      comment: 'the core reads no files, starts no processes and opens no sockets',
      severity: 'error',
      from: { path: '^lambdas/(core/|(learning-|metrics-|sharing-)?ports\\.ts$)' },
      to: {
        dependencyTypes: ['core'],
        path: '^(node:)?(fs|fs/promises|child_process|net|http|https|dgram|worker_threads|os|path|url)$',
      },
    },
    {
      name: 'core-imports-no-outer-layer',
      comment: 'the core imports no adapter, handler, runner, local stack, CLI or construct',
      severity: 'error',
      from: { path: '^lambdas/(core/|(learning-|metrics-|sharing-)?ports\\.ts$)' },
      to: { path: '^(lambdas/(adapters|api|handlers)/|agent/|local/|bin/|lib/)' },
    },
    {
      name: 'ports-import-only-core-types',
      comment: 'lambdas/ports.ts speaks in domain terms: core schemas and errors only',
      severity: 'error',
      from: { path: '^lambdas/(learning-|metrics-|sharing-)?ports\\.ts$' },
      to: {
        path: '^lambdas/',
        pathNot: ['^lambdas/core/(schemas/|errors\\.ts$|prompts/)'],
      },
    },
    forbid(
      'adapters-below-entry-points',
      'adapters import the core and ports, never an entry point',
      '^lambdas/adapters/',
      '^(lambdas/(api|handlers)/|agent/|local/|bin/|lib/)',
    ),
    forbid(
      'api-below-entry-points',
      'the Run API (router, routes, problems, OpenAPI) composes core and adapters; handlers and the local server serve it',
      '^lambdas/api/',
      '^(lambdas/handlers/|agent/|local/|bin/|lib/)',
    ),
    forbid(
      'handlers-are-lambda-entry-points',
      'handlers compose core and adapters; nothing else of ours',
      '^lambdas/handlers/',
      '^(agent/|local/|bin/|lib/)',
    ),
    forbid(
      'runner-is-a-container-entry-point',
      'the runner (agent/) uses core and adapters; the local stack wires it, not the other way',
      '^agent/',
      '^(lambdas/handlers/|local/|bin/|lib/)',
    ),
    {
      name: 'only-bin-and-tests-import-local',
      comment: 'local/ (emulators, stand-ins) is reached only from bin/, tests and benchmarks',
      severity: 'error',
      from: { pathNot: '^(local/|bin/|test/|bench/)' },
      to: { path: '^local/' },
    },
    {
      name: 'constructs-stay-in-lib',
      comment:
        'lib/ (CDK) imports no runtime code but the table design, the API route table, the runner access, the sharing design, and the metric catalogue and dashboard layout it shares with the handlers',
      severity: 'error',
      from: { path: '^lib/' },
      to: {
        path: '^(lambdas|agent|local|bin)/',
        pathNot: [
          '^lambdas/adapters/table-design\\.ts$',
          '^lambdas/api/route-table\\.ts$',
          '^lambdas/adapters/runner-access\\.ts$',
          '^lambdas/core/schemas/metric-catalogue\\.ts$',
          '^lambdas/core/observability/dashboard-layout\\.ts$',
          '^lambdas/adapters/sharing/sharing-design\\.ts$',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(cdk\\.out|\\.ralph|coverage|examples/[^/]+/(template|steps))/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
