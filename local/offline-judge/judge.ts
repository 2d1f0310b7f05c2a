/**
 * The offline judge: NOT a model, and it says so in every answer. It reads the judge
 * prompt built by `lambdas/core/evaluation/judge/prompt.ts` back into the artefact and
 * scores it with its own transparent rules (`story-rubric.ts`, `change-rubric.ts`), each
 * criterion on 1–5, the gestalt being their mean.
 */
import { StoryDocumentSchema, type JudgeAnswer } from '../../lambdas/core/schemas/evaluation.js';
import { ARTEFACT_LINE } from '../../lambdas/core/judge/prompt.js';
import { parseJsonOr } from './parse-json.js';
import { readChange } from './change-prompt.js';
import { judgeChangeOffline } from './change-rubric.js';
import { answerFrom } from './judge-answer.js';
import { readFence } from './prompt-sections.js';
import { judgeStoryOffline } from './story-rubric.js';

/**
 * Judges the artefact in a judge prompt, or returns undefined when the text is not one.
 *
 * @example
 * judgeOffline(buildJudgePrompt(artefact).user)?.gestalt; // e.g. 3.8
 */
export function judgeOffline(prompt: string): JudgeAnswer | undefined {
  const header = ARTEFACT_LINE.exec(prompt);
  if (!header) return undefined;
  const [, kind, type, id] = header;
  const rest = prompt.slice(header.index + header[0].length);
  if (kind === 'change') return judgeChangeOffline(readChange(rest));
  const block = readFence(rest);
  if (type === 'user_story' && block) {
    const story = StoryDocumentSchema.safeParse(parseJsonOr(block.body, undefined));
    if (story.success) return judgeStoryOffline(story.data);
  }
  return judgeGenericOffline(type ?? 'document', id ?? '?', block?.body ?? '');
}

/** A document type without a rubric of its own here: scored by how much it says. */
function judgeGenericOffline(type: string, id: string, body: string): JudgeAnswer {
  const text = body.trim();
  const structured = /^\s*(?:[-*]|\d+\.|#)/m.test(text) || /[{[]/.test(text.slice(0, 1));
  const score = text === '' ? 1 : text.length < 200 ? 2 : structured ? 4 : 3;
  return answerFrom(`this ${type} document (${id})`, [
    {
      name: 'substance',
      score,
      notes: [
        text === ''
          ? 'empty'
          : `${text.length} characters${structured ? ', structured' : ''}; the offline judge has no rubric heuristics for "${type}"`,
      ],
    },
  ]);
}
