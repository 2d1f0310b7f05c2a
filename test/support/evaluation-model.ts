/**
 * The model double of the evaluation e2e tests: the local Messages-API server
 * (`local/model-server.ts`) with a responder that routes each judge and proposal prompt to
 * the scenario owning its artefact (by id prefix), so that several runs can share one
 * server and one local stack. Scripted faults (`server.script(...)`) still come first.
 */
import { AnthropicModelClient } from '../../lambdas/adapters/anthropic.js';
import { ARTEFACT_LINE } from '../../lambdas/core/judge/prompt.js';
import type { ModelClient } from '../../lambdas/ports.js';
import { when } from '../../local/model-server/faults.js';
import type { MessagesRequestBody, ModelServerRequest } from '../../local/model-server/request.js';
import type { ScriptStep } from '../../local/model-server/script.js';
import { startModelServer, type ModelServer } from '../../local/model-server/server.js';
import { qusVerdicts } from './evaluation.js';

/** How the pattern-proposal prompt is recognised (as the offline proposer does). */
export const PROPOSAL_PROMPT =
  /pattern is the cheap mode missing|propose a specific, testable pattern/i;

/** The artefact a proposal prompt is about: "The story (story-1, document:user_story) ...". */
const PROPOSAL_SUBJECT = /^The (?:story|document|change) \(([^,\s]+), /m;

/** The document's proposal answer. */
export interface ProposalAnswer {
  category: string;
  pattern: string;
  rationale: string;
}

/** One judge answer: a gestalt (a valid answer is built around it) or the raw text. */
export type JudgeReply = number | { text: string };

export interface Scenario {
  /** The judge's answer for the `call`-th judge request (1-based) about `artefactId`. */
  judge(artefactId: string, call: number): JudgeReply;
  /** The proposer's answer for the `call`-th proposal request (1-based) of the scenario. */
  propose?(artefactId: string, call: number): ProposalAnswer | { text: string };
}

export interface EvaluationModel {
  server: ModelServer;
  /** What `openLocalStack({ model })` takes. */
  local: { model: ModelClient; label: string; stop: () => Promise<void> };
  /** Routes the prompts about artefacts whose id starts with `prefix` to `scenario`. */
  scenario(prefix: string, scenario: Scenario): void;
  /** The HTTP statuses the server answered the judge requests about `artefactId` with. */
  judgeStatuses(artefactId: string): (number | undefined)[];
}

/**
 * A judge answer of the JudgeAnswer shape, with a pass on every QUS criterion (which the
 * user-story rubric requires and the others drop).
 *
 * @example
 * judgeAnswer(4.5); // '{"gestalt":4.5,"reasoning":"scripted judge: 4.5", ...}'
 */
export function judgeAnswer(gestalt: number): string {
  return JSON.stringify({
    gestalt,
    reasoning: `scripted judge: ${gestalt}`,
    strengths: gestalt >= 4 ? ['names the user and the outcome'] : [],
    weaknesses: gestalt < 4 ? ['vague acceptance criteria'] : [],
    criteria: qusVerdicts(),
  });
}

/** The artefact id of a judge prompt, or of a proposal prompt; `undefined` for neither. */
export function artefactIdOf(
  request: Pick<ModelServerRequest, 'firstUserText'>,
): string | undefined {
  const text = request.firstUserText;
  if (PROPOSAL_PROMPT.test(text)) return PROPOSAL_SUBJECT.exec(text)?.[1];
  return ARTEFACT_LINE.exec(text)?.[3];
}

/** Whether the request is a judge prompt about `artefactId`. */
export function isJudgePromptFor(artefactId: string) {
  return (request: Pick<ModelServerRequest, 'firstUserText'>): boolean =>
    !PROPOSAL_PROMPT.test(request.firstUserText) && artefactIdOf(request) === artefactId;
}

/**
 * A script step taken only by a judge request about `artefactId` (the correction turn of a
 * judge conversation included: its first user message is the same question).
 *
 * @example
 * server.script(forJudgeOf('faults-a', fault.rateLimited(0)));
 */
export function forJudgeOf(artefactId: string, step: ScriptStep): ScriptStep {
  return when(isJudgePromptFor(artefactId), step);
}

/**
 * Starts the model server with the routing responder and a client with a short backoff.
 *
 * @example
 * const model = await startEvaluationModel();
 * model.scenario('conv-', { judge: () => 4.5, propose: () => ({ ... }) });
 * const stack = await openLocalStack({ model: model.local, retryIntervalMs: 0 });
 */
export async function startEvaluationModel(): Promise<EvaluationModel> {
  const scenarios = new Map<string, Scenario>();
  const judgeCalls = new Map<string, number>();
  const proposalCalls = new Map<string, number>();
  const owner = (artefactId: string): [string, Scenario] | undefined =>
    [...scenarios].find(([prefix]) => artefactId.startsWith(prefix));
  const count = (counts: Map<string, number>, key: string): number => {
    const next = (counts.get(key) ?? 0) + 1;
    counts.set(key, next);
    return next;
  };

  const server = await startModelServer({
    responder: (request) => {
      // An unusable answer, never a throw: the server must keep answering the other runs.
      const artefactId = artefactIdOf(request);
      if (artefactId === undefined) return 'not a prompt this double answers';
      const routed = owner(artefactId);
      if (!routed) return `no scenario for artefact ${artefactId}`;
      const [prefix, scenario] = routed;
      if (PROPOSAL_PROMPT.test(request.firstUserText)) {
        const answer = scenario.propose?.(artefactId, count(proposalCalls, prefix));
        if (answer === undefined) return 'no proposal';
        return 'text' in answer ? answer.text : JSON.stringify(answer);
      }
      const reply = scenario.judge(artefactId, count(judgeCalls, artefactId));
      return typeof reply === 'number' ? judgeAnswer(reply) : reply.text;
    },
  });
  const model = new AnthropicModelClient({
    apiKey: 'offline',
    baseURL: server.url,
    backoff: { initialDelayMs: 5 },
  });
  return {
    server,
    local: { model, label: 'scripted model server', stop: () => server.stop() },
    scenario: (prefix, scenario) => {
      scenarios.set(prefix, scenario);
    },
    judgeStatuses: (artefactId) =>
      server.requests
        .filter((request) => {
          const first = (request.body as Partial<MessagesRequestBody>).messages?.[0]?.content;
          return (
            typeof first === 'string' && isJudgePromptFor(artefactId)({ firstUserText: first })
          );
        })
        .map((request) => request.status),
  };
}
