/**
 * The model double's default responder: the offline proposer for the pattern-proposal
 * prompt, the offline judge for the judge prompt, and for anything else a plain statement
 * that there is no model here. It reads only the two texts below, so it needs nothing of
 * the server that calls it (`local/model-server/`).
 */
import { judgeOffline } from './judge.js';
import { OFFLINE_JUDGE_LABEL } from './labels.js';
import { proposePatternOffline } from './propose.js';

/** What the offline responder reads of a request (the server's request has these). */
export interface OfflineQuestion {
  /** The first user message: the question, in a conversation a correction turn extended. */
  firstUserText: string;
  lastUserText: string;
}

/**
 * The answer text: a proposal for the proposal prompt (the last user message), a
 * judgement of the first user message (so a correction turn gets the same answer again),
 * or the admission that no model is here.
 *
 * @example
 * const server = await startModelServer({ responder: offlineResponder });
 */
export function offlineResponder(request: OfflineQuestion): string {
  const proposal = proposePatternOffline(request.lastUserText);
  if (proposal) return JSON.stringify(proposal);
  const judgement = judgeOffline(request.firstUserText);
  if (judgement) return JSON.stringify(judgement);
  return `${OFFLINE_JUDGE_LABEL}: there is no language model here; this double answers only the judge prompt and the pattern-proposal prompt.`;
}
