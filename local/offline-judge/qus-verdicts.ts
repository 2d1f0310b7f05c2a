/**
 * The offline judge's QUS verdicts: its own reading of the QUS definitions (Lucassen et
 * al., RE 2016) as regular expressions over the story text. It is written apart from the
 * cheap detectors (`lambdas/core/cheap/`) and imports none of them, so that agreement
 * between the cheap mode and this stand-in judge is measured, never built in.
 *
 * The story is read as role ("As a …"), means ("I want …") and ends ("so that …", or a
 * trailing "…, reducing …" clause); each verdict that finds a defect quotes the words that
 * show it, as the judge is asked to.
 */
import type { CriterionVerdict } from '../../lambdas/core/schemas/evaluation.js';
import { STORY_LEVEL_CRITERIA, type StoryLevelCriterion } from '../../lambdas/core/schemas/qus.js';

/** A story split into the QUS parts, as far as it has them. */
export interface StoryParts {
  /** The story's own text: its first paragraph (notes after a blank line are not the story). */
  text: string;
  role?: string;
  means?: string;
  ends?: string;
}

const ROLE = /^\s*as\s+(?:an?|the)\s+([^,.]+?)(?=\s*,|\s+(?:i|we)\b)/i;
const WANT =
  /\b(?:i|we)\s+(?:(?:really\s+)?want(?:\s+to)?|need(?:\s+to)?|would\s+like(?:\s+to)?|'d\s+like(?:\s+to)?|wish(?:\s+to)?|should\s+be\s+able\s+to|can|am\s+able\s+to)\s+/i;
/** Where the ends begin: "so that", "in order to", ", so I can", or ", reducing …". */
const ENDS = /(?:,?\s+so\s+that\b|,?\s+in\s+order\s+to\b|,\s*so\b|,\s*(?=[a-z]+ing\b))/i;
const SENTENCE_END = /(?<=[a-z0-9)"'’][.!?])\s+(?=[A-Z])/;

const CONJUNCTION = /\b(?:and|or|as well as|along with|plus)\b|&/i;
const BRACKETS = /\([^)]*\)|\[[^\]]*\]/;
const EXAMPLE = /\b(?:e\.g\.|i\.e\.|for example|for instance|such as|etc\.?)(?:\s+[\w'-]+){0,3}/i;
const TECHNOLOGY =
  /\b(?:AI|artificial intelligence|machine learning|deep learning|incremental learning|reinforcement learning|federated learning|neural networks?|algorithms?|blockchain|database|SQL|APIs?|REST|cloud|microservices?|Kubernetes|Docker|React|sensors?|LLMs?|GPT|chatbots?|IoT|NLP|natural language processing|computer vision|big data|data mining|predictive models?)\b/;
/** A verb that makes the technology the way it is built ("uses AI"), the solution. */
const SOLUTION_VERB =
  /\b(?:uses?|using|powered by|based on|built (?:with|on)|leverag(?:es?|ing)|employ(?:s|ing)?|via|through|with)\b/i;
const VAGUE =
  /\b(?:user-friendly|seamless(?:ly)?|efficient(?:ly)?|intuitive(?:ly)?|easy|easily|simple|fast(?:er)?|quick(?:ly|er)?|better|optimal(?:ly)?|robust|flexible|appropriate(?:ly)?|adequate(?:ly)?|various|properly|somehow|smart|best|effective(?:ly)?|high-quality|as needed|and so on|if possible|as soon as possible|etc)\b/i;
/** An ends that is a feature of the system, not a reason of the user. */
const FEATURE_ENDS =
  /^(?:the\s+)?(?:system|app|application|tool|platform|software|website|it)\s+(?:will\s+|can\s+|should\s+)?[a-z]+s?\b/i;
/** A means that is a goal or a feeling, not a feature. */
const GOAL_MEANS = /^(?:to\s+)?(?:be|feel)\s+(?:happy|satisfied|safe|confident|better|good)\b/i;

/**
 * The story's text split into role, means and ends.
 *
 * @example
 * storyParts('As a driver, I want alerts, so that I brake in time.');
 * // { text: '…', role: 'driver', means: 'alerts', ends: 'I brake in time.' }
 */
export function storyParts(description: string): StoryParts {
  const text = (description.trim().split(/\n\s*\n/)[0] ?? '').trim();
  const role = ROLE.exec(text)?.[1]?.trim();
  const want = WANT.exec(text);
  if (!want) return { text, ...(role ? { role } : {}) };
  const after = text.slice(want.index + want[0].length);
  const sentence = after.split(SENTENCE_END)[0] ?? after;
  const ends = ENDS.exec(sentence);
  const means = (ends ? sentence.slice(0, ends.index) : sentence).replace(/[.!?]+$/, '').trim();
  const rest = ends ? sentence.slice(ends.index + ends[0].length).trim() : '';
  return {
    text,
    ...(role ? { role } : {}),
    means,
    ...(rest === '' ? {} : { ends: rest }),
  };
}

type Rule = (parts: StoryParts) => string | undefined;

const RULES: Record<StoryLevelCriterion, Rule> = {
  'well-formed': ({ text, role, means }) => {
    if (role && means !== undefined) return undefined;
    return role ? (ROLE.exec(text)?.[0].trim() ?? text) : firstWords(text, 6);
  },
  atomic: ({ text, role, means }) => {
    // Without an "I want" the whole story is what it asks for.
    for (const part of [role, means ?? text]) {
      const evidence = part === undefined ? undefined : around(CONJUNCTION, part);
      if (evidence) return evidence;
    }
    return undefined;
  },
  minimal: ({ text, means }) => {
    const bracket = BRACKETS.exec(text)?.[0];
    if (bracket) return bracket;
    const example = EXAMPLE.exec(text)?.[0];
    if (example) return example.trim();
    const sentences = text.split(SENTENCE_END);
    if (sentences.length < 2) return undefined;
    // The sentence that is not the story's own ("I want …") is the extra one.
    const extra = sentences.find((sentence) => !(means && sentence.includes(means)));
    return (extra ?? sentences[1] ?? '').trim();
  },
  'conceptually-sound': ({ means, ends }) => {
    const goal = means === undefined ? undefined : GOAL_MEANS.exec(means)?.[0];
    if (goal) return goal;
    return ends === undefined ? undefined : FEATURE_ENDS.exec(ends)?.[0];
  },
  'problem-oriented': ({ means }) => {
    if (means === undefined) return undefined;
    const technology = TECHNOLOGY.exec(means);
    if (!technology) return undefined;
    const before = means.slice(0, technology.index);
    const verb = [...before.matchAll(new RegExp(SOLUTION_VERB.source, 'gi'))].at(-1);
    const from =
      verb && technology.index - (verb.index ?? 0) <= 40 ? (verb.index ?? 0) : technology.index;
    return means.slice(from, technology.index + technology[0].length);
  },
  unambiguous: ({ text }) => VAGUE.exec(text)?.[0],
  'full-sentence': ({ text }) => {
    if (text === '') return '(no story text)';
    if (text.split(/\s+/).length < 5) return text;
    if (/^[a-z]/.test(text)) return firstWords(text, 4);
    const list = /^\s*(?:[-*•]|\d+[.)])\s+.*/m.exec(text)?.[0];
    if (list) return list.trim();
    return /\b(\w+)\s+\1\b/i.exec(text)?.[0];
  },
};

/**
 * A verdict on each QUS criterion one story shows, in the order the judge is asked them;
 * a defect quotes its evidence.
 *
 * @example
 * qusVerdictsOf(storyParts('As a planner, I want maps and alerts.'))
 *   .find((verdict) => verdict.criterion === 'atomic');
 * // { criterion: 'atomic', verdict: 'defect', evidence: 'maps and alerts' }
 */
export function qusVerdictsOf(parts: StoryParts): CriterionVerdict[] {
  return STORY_LEVEL_CRITERIA.map((criterion) => {
    const evidence = RULES[criterion](parts);
    return evidence === undefined || evidence === ''
      ? { criterion, verdict: 'pass', evidence: '' }
      : { criterion, verdict: 'defect', evidence };
  });
}

/** The match of `pattern` in `text` with a word before it and two after, or none. */
function around(pattern: RegExp, text: string): string | undefined {
  const match = pattern.exec(text);
  if (!match) return undefined;
  const before = /[\w'’-]+\s*$/.exec(text.slice(0, match.index))?.[0] ?? '';
  const after = /^(?:\s*[\w'’-]+){0,2}/.exec(text.slice(match.index + match[0].length))?.[0] ?? '';
  return `${before}${match[0]}${after}`.trim();
}

function firstWords(text: string, count: number): string {
  return text.split(/\s+/).slice(0, count).join(' ');
}
