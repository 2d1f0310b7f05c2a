import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import {
  buildProposalCorrection,
  buildProposalPrompt,
  type ProposalPromptInput,
} from '../../lambdas/core/patterns/proposals/prompt.js';
import { parseProposalAnswer } from '../../lambdas/core/patterns/proposals/answer.js';
import { proposePatternOffline } from '../../local/offline-judge/propose.js';
import { judgeStoryOffline } from '../../local/offline-judge/story-rubric.js';
import {
  GOOD_STORY,
  makeCheapResult,
  makeJudgedResult,
  makePattern,
  makeStory,
  storyArtefact,
} from '../support/evaluation.js';
import { USER_CAN_PATTERN, VAGUE_PATTERN } from '../support/proposal-stories.js';

const config = DEFAULT_EVALUATION_CONFIG;

const userCan = USER_CAN_PATTERN;
const vague = VAGUE_PATTERN;

function promptInput(overrides: Partial<ProposalPromptInput> = {}): ProposalPromptInput {
  return {
    artefact: storyArtefact(GOOD_STORY),
    judge: makeJudgedResult({
      artefactId: GOOD_STORY.id,
      gestalt: 4.5,
      reasoning: 'The story names the pain as "frustrated when" invoices are copied.',
      strengths: ['names the user'],
      weaknesses: ['no error case'],
    }),
    cheap: makeCheapResult({
      artefactId: GOOD_STORY.id,
      gestalt: 3,
      reasons: ['good_ac', 'p_user_can'],
      patternsMatched: ['p_user_can'],
      patternsMissed: ['p_vague'],
    }),
    patterns: [userCan, vague],
    ...overrides,
  };
}

describe('Function: buildProposalPrompt', () => {
  it("fills the document's prompt from both verdicts and the current patterns", () => {
    // Act
    const { system, user, direction, target } = buildProposalPrompt(promptInput(), config);

    // Assess
    expect(system).toContain('one JSON object');
    expect(direction).toBe('good');
    expect(target).toBe('document:user_story');
    expect(user).toContain('The expensive LLM judge gave this story a score of 4.5.');
    expect(user).toContain('The cheap pattern-based evaluator gave it 3.');
    expect(user).toContain('Gap: 1.5');
    expect(user).toContain('Expensive mode reasoning:\nThe story names the pain');
    expect(user).toContain('Strengths:\n- names the user');
    expect(user).toContain('Weaknesses:\n- no error case');
    expect(user).toContain(
      'Cheap mode detected these signals:\n- good_ac\n- p_user_can (good): user can',
    );
    expect(user).toContain('- p_user_can [good, fired]: user can — States what the user can do');
    expect(user).toContain('- p_vague [bad, did not fire]: vague');
    expect(user).toContain('(1 applicable patterns did not fire on this story.)');
    expect(user).toContain('What pattern is the cheap mode MISSING');
    expect(user).toContain('Propose a specific, testable pattern in this format:');
    expect(user).toContain('"pattern": "the exact string or regex to add",');
    // The artefact's text, as the cheap mode matches it.
    expect(user).toContain('As an accountant, I want to export the invoices of a month');
  });

  it('asks for a bad signal when the judge scored lower than the cheap mode', () => {
    const input = promptInput({
      judge: makeJudgedResult({ artefactId: GOOD_STORY.id, gestalt: 2 }),
    });
    const prompt = buildProposalPrompt(input, config);
    expect(prompt.direction).toBe('bad');
    expect(prompt.user).toContain('Gap: -1');
    expect(prompt.user).toContain('propose a bad signal');
  });

  it('asks for a category the live patterns do not use yet only after a plateau', () => {
    // Prepare
    const patterns = [
      makePattern({ id: 'p_001', category: 'value_phrases', phrases: ['so that'] }),
    ];

    // Act
    const plain = buildProposalPrompt(promptInput({ patterns }), config).user;
    const diverse = buildProposalPrompt(promptInput({ patterns, diversify: true }), config).user;

    // Assess
    expect(plain).not.toContain('a category none of them uses yet');
    expect(diverse).toContain(
      'propose one of a category none of them uses yet (used: value_phrases)',
    );
  });

  it('lists only live patterns of the artefact’s target, fired first, up to the limit', () => {
    // Prepare
    const patterns = [
      vague,
      userCan,
      makePattern({ id: 'p_rejected', phrases: ['old'], status: 'rejected' }),
      makePattern({ id: 'p_change', phrases: ['adds tests'], appliesTo: ['change'] }),
    ];

    // Act
    const all = buildProposalPrompt(promptInput({ patterns }), config).user;
    const one = buildProposalPrompt(
      promptInput({ patterns }),
      resolveEvaluationConfig({ proposals: { patternListLimit: 1 } }),
    ).user;

    // Assess
    expect(all).not.toContain('p_rejected');
    expect(all).not.toContain('p_change');
    expect(all.indexOf('- p_user_can [')).toBeLessThan(all.indexOf('- p_vague ['));
    expect(one).toContain('- p_user_can [');
    expect(one).not.toContain('- p_vague [');
    expect(one).toContain('(1 more not shown)');
  });

  it('cuts the artefact text to its budget and says so', () => {
    const user = buildProposalPrompt(
      promptInput(),
      resolveEvaluationConfig({ proposals: { artefactChars: 10 } }),
    ).user;
    expect(user).toContain('Export inv\n[... cut:');
  });

  it('is recognised by the local model double, whose answer parses', () => {
    // Prepare: the offline judge's own reasoning, as in a local run
    const story = makeStory({
      technical_area: null,
      description: 'As an accountant I am frustrated when invoices are copied by hand.',
    });
    const judged = judgeStoryOffline(story);
    const input = promptInput({
      artefact: storyArtefact(story),
      judge: makeJudgedResult({ artefactId: story.id, ...judged, gestalt: 4.5 }),
    });

    // Act
    const offline = proposePatternOffline(buildProposalPrompt(input, config).user);
    const parsed = parseProposalAnswer(JSON.stringify(offline));

    // Assess
    expect(offline).toBeDefined();
    expect(offline?.rationale).toContain('gap 1.5');
    expect(parsed.ok).toBe(true);
  });
});

describe('Function: buildProposalCorrection', () => {
  it('names the problem and repeats the format the local double recognises', () => {
    const correction = buildProposalCorrection('pattern: expected string', 'change');
    expect(correction).toContain('Your answer could not be used: pattern: expected string');
    expect(correction).toContain('good_change_indicators');
    expect(proposePatternOffline(correction)).toBeDefined();
  });
});
