/**
 * QUS "uniform": every story of a backlog uses the same template. The template is the
 * story's markers ("as a" · "i want" · "so that"); the backlog's dominant template is the
 * most common one, when it holds a clear share of the backlog (otherwise there is none to
 * deviate from, and no story is reported).
 */
import type { StoryTemplate } from './story-parts.js';
import type { Defect } from '../../schemas/qus.js';

/** Roles "as a" / "as an" are one marker: the article follows the noun, not the template. */
const key = (template: StoryTemplate): string =>
  [
    template.role?.replace(/^as an?$/, 'as a') ?? '—',
    template.means ?? '—',
    template.ends ?? '—',
  ].join(' · ');

/** The dominant template of a backlog, or `null` when none holds `share` of it. */
export interface DominantTemplate {
  readonly key: string;
  readonly template: StoryTemplate;
}

/**
 * The template most stories share, when at least `share` of them (and at least two) do.
 *
 * @example
 * dominantTemplate(parts.map((p) => p.template), 0.6)?.key; // 'as a · i want · so that'
 */
export function dominantTemplate(
  templates: readonly StoryTemplate[],
  share: number,
): DominantTemplate | null {
  const counts = new Map<string, { count: number; template: StoryTemplate }>();
  for (const template of templates) {
    const entry = counts.get(key(template));
    if (entry) entry.count += 1;
    else counts.set(key(template), { count: 1, template });
  }
  let best: { key: string; count: number; template: StoryTemplate } | null = null;
  for (const [name, entry] of counts)
    if (best === null || entry.count > best.count) best = { key: name, ...entry };
  if (best === null || best.count < 2 || best.count < share * templates.length) return null;
  return { key: best.key, template: best.template };
}

/**
 * The uniform defect of a story whose template differs from the dominant one; the evidence
 * names the markers that differ ("i need" where the backlog says "i want").
 *
 * @example
 * detectUniform({ role: 'as a', means: 'i need', ends: null }, dominant);
 * // { criterion: 'uniform', evidence: 'i need (backlog: i want); no ends (backlog: so that)' }
 */
export function detectUniform(
  template: StoryTemplate,
  dominant: DominantTemplate | null,
): Defect | null {
  if (dominant === null || key(template) === dominant.key) return null;
  const differences: string[] = [];
  for (const part of ['role', 'means', 'ends'] as const) {
    const mine = part === 'role' ? template.role?.replace(/^as an?$/, 'as a') : template[part];
    const theirs =
      part === 'role'
        ? dominant.template.role?.replace(/^as an?$/, 'as a')
        : dominant.template[part];
    if (mine === theirs) continue;
    differences.push(`${mine ?? `no ${part}`} (backlog: ${theirs ?? `no ${part}`})`);
  }
  return { criterion: 'uniform', evidence: differences.join('; ') };
}
