/**
 * The offline proposer (`local/offline-judge/propose.ts`): answering the Pattern Proposal
 * Prompt from the judge reasoning it quotes, with a pattern that generalises.
 */
import { describe, expect, it } from 'vitest';
import { buildJudgePrompt } from '../../lambdas/core/judge/prompt.js';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import { buildProposalPrompt } from '../../lambdas/core/patterns/proposals/prompt.js';
import type { StoryDocument } from '../../lambdas/core/schemas/evaluation.js';
import { OFFLINE_JUDGE_LABEL } from '../../local/offline-judge/labels.js';
import { proposePatternOffline } from '../../local/offline-judge/propose.js';
import { judgeStoryOffline } from '../../local/offline-judge/story-rubric.js';
import { GOOD_STORY, makeCheapResult, makePattern, storyArtefact } from '../support/evaluation.js';
import { poorStory, proposalPrompt } from '../support/offline-judge.js';

describe('Function: proposePatternOffline', () => {
  const story = {
    ...GOOD_STORY,
    technical_area: null,
    services: [],
    description:
      'As an accountant I am frustrated when invoices are copied by hand, so that close is slow.',
  };
  const reasoning = judgeStoryOffline(story).reasoning;

  it('proposes the phrase the judge credited that no pattern holds', () => {
    // Act
    const proposal = proposePatternOffline(proposalPrompt(4.5, 3, reasoning));

    // Assess
    expect(proposal).toMatchObject({ category: 'value_phrases' });
    expect(proposal?.rationale).toContain('not a model');
    expect(proposal?.rationale).toContain('gap 1.5');
    expect(reasoning.toLowerCase()).toContain(proposal!.pattern);
  });

  it('skips phrases a current pattern already holds', () => {
    const first = proposePatternOffline(proposalPrompt(4.5, 3, reasoning))!;
    const second = proposePatternOffline(proposalPrompt(4.5, 3, reasoning, `- ${first.pattern}`))!;
    expect(second.pattern).not.toBe(first.pattern);
  });

  it('proposes a bad indicator when the cheap mode scored higher than the judge', () => {
    const proposal = proposePatternOffline(
      proposalPrompt(1.5, 3.5, judgeStoryOffline(poorStory).reasoning),
    );
    expect(proposal?.category).toBe('bad_story_indicators');
    expect(proposal?.rationale).toContain('holds against it');
  });

  it('proposes the evidence of a QUS defect as a bad indicator when the cheap mode scored higher', () => {
    // Prepare: a story the judge holds to 2.5 for its brackets and its conjunction.
    const text =
      'As a business owner, I want to explore the new market opportunities and revenue streams that Autonomous Vehicles (AVs) can offer, so that I can expand my business and stay competitive in the industry.';
    const judged = judgeStoryOffline({ ...GOOD_STORY, title: text, description: text });

    // Act
    const proposal = proposePatternOffline(proposalPrompt(judged.gestalt, 4, judged.reasoning));

    // Assess
    expect(proposal?.category).toBe('bad_story_indicators');
    expect(proposal?.rationale).toContain('holds against it');
    expect(proposal?.rationale).toContain('under QUS quality (2.5/5)');
    expect(text.toLowerCase()).toContain(proposal!.pattern);
  });

  it('learns from free-form reasoning too, and falls back when nothing is quoted', () => {
    expect(
      proposePatternOffline(
        proposalPrompt(4, 3, 'The story names the pain as "stuck waiting" for support.'),
      )?.pattern,
    ).toBe('stuck waiting');
    expect(proposePatternOffline(proposalPrompt(4, 3, 'Good story.'))).toMatchObject({
      category: 'good_story_indicators',
      pattern: 'so that',
    });
  });

  it('returns undefined for another prompt', () => {
    expect(proposePatternOffline(buildJudgePrompt(storyArtefact(GOOD_STORY)).user)).toBeUndefined();
  });
});

/** The proposal prompt the run builds: the story's text, the offline judge's verdict, the patterns. */
function runPrompt(
  story: StoryDocument,
  patterns: ReturnType<typeof makePattern>[] = [],
  cheapScore = 2,
): string {
  const judge = judgeStoryOffline(story);
  return buildProposalPrompt(
    {
      artefact: storyArtefact(story),
      judge,
      cheap: makeCheapResult({ artefactId: story.id, gestalt: cheapScore }),
      patterns,
    },
    DEFAULT_EVALUATION_CONFIG,
  ).user;
}

/** A story as the example's writer writes it: a role, a pain, an outcome and criteria. */
const writtenStory: StoryDocument = {
  id: 'story-fb-001',
  title: 'Show only the open todos',
  description:
    'As a parent, I want to see only the todos that are still open, so that I do not have to scroll past finished ones.',
  acceptance_criteria: [
    "`filterTodos(list, 'open')` returns only the todos whose done flag is false",
    '`filterTodos` returns the open todos in the order they were added',
    "A list in which every todo is done returns an empty list for 'open'",
  ],
  technical_area: 'src/todos.ts (filterTodos)',
  services: ['todo-core'],
  source_conversations: ['fb-001'],
};

const phrasePattern = (phrase: string, id = `p_${phrase.replace(/\W+/g, '_')}`) =>
  makePattern({ id, phrases: [phrase], status: 'provisional' });

describe('Function: proposePatternOffline (choosing a pattern that generalises)', () => {
  it("proposes the frame of the judge's strongest credit, not the story's own wording", () => {
    // Act
    const proposal = proposePatternOffline(runPrompt(writtenStory))!;

    // Assess: "As a parent" is credited at 5/5; every story that names its user shares "as a".
    expect(proposal).toMatchObject({ category: 'value_phrases', pattern: 'as a' });
    expect(proposal.rationale).toMatch(
      /^offline proposer \(a deterministic stand-in, not a model\)/,
    );
    expect(proposal.rationale).toContain('credits "As a parent" under clear user problem (5/5)');
    expect(proposal.rationale).toContain('proposes the frame "as a"');
  });

  it('generalises only a lead of two or more frame words, and keeps a phrase that is all frame', () => {
    // Prepare: outcomes "to avoid" (one frame word, then the story's own) and "in order to" (all frame).
    const story = (outcome: string) => ({
      ...writtenStory,
      description: `As a parent, I have to scroll past finished todos; I want to see only the open ones ${outcome} that.`,
    });
    const covered = [phrasePattern('as a'), phrasePattern('have to')];

    // Act
    const one = proposePatternOffline(runPrompt(story('to avoid'), covered))!;
    const all = proposePatternOffline(runPrompt(story('in order to avoid'), covered))!;

    // Assess
    expect(one.pattern).toBe('to avoid');
    expect(one.rationale).not.toContain('proposes the frame');
    expect(all.pattern).toBe('in order to');
    expect(all.rationale).not.toContain('proposes the frame');
  });

  it('never proposes what a current pattern already matches, general or specific', () => {
    // Prepare: "as a" covers "As a parent"; "have to" covers "have to scroll"; "so that" is taken.
    const patterns = [phrasePattern('as a'), phrasePattern('have to'), phrasePattern('so that')];

    // Act
    const proposal = proposePatternOffline(runPrompt(writtenStory, patterns))!;

    // Assess: the next credit the story's text holds (technical specificity 5/5).
    expect(proposal).toMatchObject({ category: 'good_story_indicators', pattern: 'src/todos.ts' });
  });

  it('reads regex patterns in the list as matchers too', () => {
    const regex = makePattern({ id: 'p_role', regexes: ['\\bas an?\\b'], status: 'provisional' });
    expect(proposePatternOffline(runPrompt(writtenStory, [regex]))?.pattern).toBe('have to');
  });

  it("proposes only wording the story's text holds, never a quote the judge reworded", () => {
    // Prepare: everything quotable is taken but the code quote, which the judge strips of
    // its brackets ("filterTodos list, 'open'") and so occurs nowhere in the story.
    const patterns = ['as a', 'have to', 'so that', 'src/todos.ts'].map((phrase) =>
      phrasePattern(phrase),
    );
    expect(judgeStoryOffline(writtenStory).reasoning).toContain(`"filterTodos list, 'open'"`);

    // Act
    const proposal = proposePatternOffline(runPrompt(writtenStory, patterns))!;

    // Assess: the fallback, a common credited signal the text holds and no pattern matches.
    expect(proposal.pattern).toBe('returns');
    expect(proposal.rationale).toContain('quotes no phrase that the current patterns lack');
  });

  it('falls back to "so that" when every common signal is taken (a duplicate the step refuses)', () => {
    const patterns = ['as a', 'have to', 'so that', 'src/todos.ts', 'returns'].map((phrase) =>
      phrasePattern(phrase),
    );
    expect(proposePatternOffline(runPrompt(writtenStory, patterns))?.pattern).toBe('so that');
  });

  it('never proposes a phrase the judge criticises as a good signal, even under a 4/5', () => {
    // Prepare: scope 4/5 only because 'title joins concerns with "and"'.
    const joined = { ...writtenStory, title: 'Show open todos and count them' };
    const patterns = ['as a', 'have to', 'so that', 'src/todos.ts', 'returns'].map((phrase) =>
      phrasePattern(phrase),
    );
    expect(judgeStoryOffline(joined).reasoning).toContain(
      'scope 4/5 (title joins concerns with "and")',
    );

    // Act
    const proposal = proposePatternOffline(runPrompt(joined, patterns))!;

    // Assess
    expect(proposal.pattern).not.toBe('and');
    expect(proposal.category).toBe('good_story_indicators');
  });

  it('takes a criterion at 3.5/5 as neither credit nor fault', () => {
    const reasoning = `${OFFLINE_JUDGE_LABEL} scored this user story 3.5 as the mean of 1 criteria: clarity 3.5/5 (says "half way").`;
    expect(proposePatternOffline(proposalPrompt(4, 3, reasoning))?.pattern).toBe('so that');
    expect(proposePatternOffline(proposalPrompt(2, 3, reasoning))?.pattern).not.toBe('half way');
  });

  it('reads free-form reasoning in the direction of the gap', () => {
    const reasoning = 'The story is padded with "as needed" everywhere.';
    expect(proposePatternOffline(proposalPrompt(2, 3.5, reasoning))).toMatchObject({
      category: 'bad_story_indicators',
      pattern: 'as needed',
    });
    expect(proposePatternOffline(proposalPrompt(4, 3, reasoning))).toMatchObject({
      category: 'good_story_indicators',
      pattern: 'as needed',
    });
  });

  it('prefers a category no live pattern uses when the prompt asks for diversity', () => {
    // Prepare: the recovery's request, as buildProposalPrompt words it after a plateau.
    const usedValue = makePattern({
      id: 'p_lost',
      phrases: ['lost'],
      status: 'provisional',
      category: 'value_phrases',
    });
    const plain = runPrompt(writtenStory, [usedValue]);
    const diverse = buildProposalPrompt(
      {
        artefact: storyArtefact(writtenStory),
        judge: judgeStoryOffline(writtenStory),
        cheap: makeCheapResult({ artefactId: writtenStory.id, gestalt: 2 }),
        patterns: [usedValue],
        diversify: true,
      },
      DEFAULT_EVALUATION_CONFIG,
    ).user;
    expect(diverse).toContain('(used: value_phrases)');

    // Act / Assess: the user-problem credits are value phrases; the next credit is not.
    expect(proposePatternOffline(plain)).toMatchObject({
      category: 'value_phrases',
      pattern: 'as a',
    });
    expect(proposePatternOffline(diverse)).toMatchObject({
      category: 'good_story_indicators',
      pattern: 'src/todos.ts',
    });
  });

  it('is deterministic', () => {
    const prompt = runPrompt(writtenStory, [phrasePattern('as a')]);
    expect(proposePatternOffline(prompt)).toEqual(proposePatternOffline(prompt));
  });
});
