/**
 * How the offline stand-ins name themselves. Every answer they give carries one of these,
 * so wherever their output is shown (a judge's reasoning, a proposal's rationale, the
 * CLI's first line) it says that no model produced it.
 */
export const OFFLINE_JUDGE_LABEL = 'offline judge (a deterministic stand-in, not a model)';
export const OFFLINE_PROPOSER_LABEL = 'offline proposer (a deterministic stand-in, not a model)';
