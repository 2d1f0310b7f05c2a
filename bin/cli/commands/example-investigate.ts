/**
 * `ralph example investigate` (`npm start -- investigate`): an error-triggered run end to end
 * on this machine. A fresh copy of the example app (examples/investigate/template: a real
 * bug) as a git repository under the data dir; a GitHub double on loopback (a stand-in for
 * GitHub: nothing leaves the machine); a project route to both; the recorded Sentry issue
 * payload, signed with the example's client secret, posted to the hook route of a Run API
 * server on loopback (the intake `ralph serve` runs); and the investigate run it starts,
 * followed to its end: the draft pull request on the double and the run's report.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitHubCodeHost } from '../../../lambdas/adapters/github/github-code-host.js';
import { nodeHookDigest } from '../../../lambdas/adapters/hook-digest.js';
import { putProjectRoute } from '../../../lambdas/core/projects/project-routes.js';
import { HookAnswerSchema, type HookAnswer } from '../../../lambdas/core/schemas/hook-answer.js';
import type { ProjectRouteBody } from '../../../lambdas/core/schemas/project-route.js';
import { sentryDeliveryHeaders } from '../../../lambdas/core/shared/hook-auth/delivery.js';
import { parseJsonText, parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import { newRunId } from '../../../lambdas/core/steps/lifecycle.js';
import { startApiServer } from '../../../local/api-server/api-server.js';
import { startGitHubDouble, type GitHubDouble } from '../../../local/github-double/server.js';
import { localApiEntry, stderrLogger } from '../../../local/local-api.js';
import { localIntake } from '../../../local/local-intake.js';
import { localBackend } from '../backend/local-backend.js';
import { CliError } from '../errors.js';
import { commitAll, copyTemplate, exampleStamp } from '../example-repository.js';
import { EXIT } from '../exit-codes.js';
import { postDelivery } from '../hooks/post-delivery.js';
import { investigationBlock } from '../investigation-render.js';
import { readInvestigationReport } from '../investigation-report.js';
import type { Output } from '../output.js';
import { reportEnd } from '../report-end.js';
import { withSession, type GlobalOptions, type Session } from '../session.js';
import { terminalSafe } from '../terminal-text.js';
import { watchRun } from '../watch.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/investigate/', import.meta.url));
const PAYLOAD = join(EXAMPLE, 'sentry-issue.created.json');
/** Where the double keeps the app: the route's `codeHost`. */
const CODE_HOST_REPO = { owner: 'example', name: 'shop' };
const AGENT_LABEL = 'scripted investigator (a deterministic stand-in, not a model)';

interface Example {
  stamp: string;
  project: string;
  repo: string;
  github: GitHubDouble;
}

export async function exampleInvestigateCommand(
  options: GlobalOptions,
  output: Output,
): Promise<number> {
  const stamp = exampleStamp(new Date());
  const repo = resolve(options.dataDir, 'example-investigate', stamp);
  await copyTemplate(join(EXAMPLE, 'template'), repo);
  await commitAll(repo, 'chore: the shop app, with its bug');
  const token = `ghs_example${randomBytes(12).toString('hex')}`;
  const github = await startGitHubDouble({ tokens: [token], repositories: [CODE_HOST_REPO] });
  try {
    const codeHost = new GitHubCodeHost({
      apiBaseUrl: github.url,
      credentials: { kind: 'token', token },
    });
    // A project of its own per example run: a route and an error group outlive the run, and
    // a group already fixed would not be investigated again.
    const example = { stamp, project: `shop-${stamp}`, repo, github };
    return await withSession(options, (session) => investigate(session, example, output), {
      codeHost,
    });
  } finally {
    await github.close();
  }
}

async function investigate(session: Session, example: Example, output: Output): Promise<number> {
  const { stack } = session;
  output.line(`ralph-cloud · local stack · agent: ${AGENT_LABEL}`);
  output.line(
    `GitHub double: ${example.github.url} (a local stand-in for GitHub's REST API; nothing leaves this machine)`,
  );
  output.line(`example repository: ${example.repo}`);
  await putProjectRoute(
    { routes: stack.projectRoutes, clock: stack.deps.clock, allowLocalRepos: true },
    example.project,
    routeBody(example.project, example.repo),
  );
  output.line(
    `project route ${example.project}: Sentry project ${example.project} → ${example.repo} (main) · pull requests to ${CODE_HOST_REPO.owner}/${CODE_HOST_REPO.name} on the double · gate: node --test`,
  );
  // The run the delivery's batch starts, named here so that it is followed from its first step.
  const runId = newRunId(stack.deps.clock.now(), randomBytes(3).toString('hex'));
  const clientSecret = randomBytes(24).toString('hex');
  // No window: the delivery closes its batch itself, and no timer is ever set.
  const intake = localIntake(stack, {
    onCloseFailed: (batch, error) =>
      process.stderr.write(`batch ${batch.batchId} could not be closed: ${String(error)}\n`),
  });
  const server = await startApiServer({
    entry: localApiEntry(stack, stderrLogger, {
      ...intake.deps,
      secrets: {
        sentryClientSecret: async () => clientSecret,
        newRelicCredential: async () => undefined,
      },
      newRunId: () => runId,
    }),
    // Only the hook route is called: it is authenticated by Sentry's signature, not SigV4.
    credential: {
      accessKeyId: `RALPHEXAMPLE${randomBytes(4).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(30).toString('base64url'),
    },
    region: stack.endpoints.region,
  });
  try {
    await watchRun(
      session,
      runId,
      async () => {
        const answer = await deliverIssue(server.url, example, clientSecret);
        output.line(deliveryLine(server.url, answer));
        if (answer.outcome !== 'recorded' || answer.events[0]?.runId !== runId)
          throw new CliError(
            `the Sentry delivery started no run: ${JSON.stringify(answer)}`,
            EXIT.internal,
          );
      },
      { json: output.json, follow: false },
    );
  } finally {
    await server.close();
    await intake.stop();
  }
  return theEnd(session, runId, example, output);
}

/** The route the example saves: the app, its test as the gate, the scripted agent, no window. */
function routeBody(project: string, repo: string): ProjectRouteBody {
  return {
    matches: [{ kind: 'sentry-project', key: project }],
    repo,
    codeHost: CODE_HOST_REPO,
    config: {
      agent: {
        command: `node ${JSON.stringify(join(EXAMPLE, 'scripted-investigator.mjs'))}`,
        timeoutSeconds: 120,
      },
      gates: [{ name: 'test', command: 'node --test', blocking: true, timeoutSeconds: 120 }],
    },
    // The batch closes as the delivery arrives, rather than after five minutes.
    investigate: { batchWindowSeconds: 0 },
  };
}

/**
 * The recorded payload, posted signed as Sentry posts it. Its project is this example run's
 * and its issue id one of its own (the example's stamp): the rest is as recorded.
 */
async function deliverIssue(
  url: string,
  example: Example,
  clientSecret: string,
): Promise<HookAnswer> {
  const payload = parseJsonText(await readFile(PAYLOAD, 'utf8'), PAYLOAD) as {
    data: { issue: { id: string; project: { slug: string } } };
  };
  payload.data.issue.id = example.stamp.replace('-', '');
  payload.data.issue.project.slug = example.project;
  const body = Buffer.from(JSON.stringify(payload));
  const headers = sentryDeliveryHeaders({
    body,
    clientSecret,
    resource: 'issue',
    now: new Date(),
    requestId: randomUUID(),
    digest: nodeHookDigest,
  });
  const sent = await postDelivery({ url: new URL('/hooks/sentry', url), headers, body });
  if (sent.status >= 300)
    throw new CliError(
      `the hook route answered ${sent.status}: ${terminalSafe(sent.body)}`,
      EXIT.internal,
    );
  return parseOrThrow(HookAnswerSchema, parseJsonText(sent.body, 'hook answer'), 'hook answer');
}

function deliveryLine(url: string, answer: HookAnswer): string {
  const event = answer.outcome === 'recorded' ? answer.events[0] : undefined;
  return `Sentry issue.created (${PAYLOAD}), signed → POST ${url}/hooks/sentry: ${answer.outcome}${event ? `, ${event.outcome}, run ${event.runId ?? 'none'}` : ''}`;
}

/** The run's end as `ralph run` prints it, then its report and its pull request. */
async function theEnd(
  session: Session,
  runId: string,
  example: Example,
  output: Output,
): Promise<number> {
  const backend = localBackend(session.stack, session.flags);
  const ended = await reportEnd(backend, runId, { ...output, data: () => undefined });
  const report = await readInvestigationReport(backend, runId);
  if (typeof report === 'string') {
    output.line(`investigation  ${report}`);
    output.data({ runId, investigationReport: null, pullRequest: null });
    return ended === EXIT.ok ? EXIT.internal : ended;
  }
  output.line(investigationBlock(report));
  const opened = report.pullRequestsOpened[0];
  const key = `${CODE_HOST_REPO.owner}/${CODE_HOST_REPO.name}`;
  const pull = example.github.state.repositories
    .get(key)
    ?.pulls.find((found) => found.number === opened?.number);
  const pullRequest =
    opened && pull
      ? { number: pull.number, htmlUrl: opened.htmlUrl, title: pull.title, draft: pull.draft }
      : null;
  output.line(
    pullRequest
      ? `${pullRequest.draft ? 'draft ' : ''}pull request #${pullRequest.number} on the GitHub double: ${pullRequest.title}\n  ${pullRequest.htmlUrl} (head ${pull?.head ?? '?'} → ${pull?.base ?? '?'})`
      : 'no pull request was opened (the report above says why)',
  );
  if (pull) output.line(`the fix: git -C ${example.repo} show ${pull.head}`);
  output.line('the GitHub double stops with this command; the branch stays in the repository');
  output.data({ runId, investigationReport: report, pullRequest });
  if (ended !== EXIT.ok) return ended;
  return pullRequest ? EXIT.ok : EXIT.runNotCompleted;
}
