/**
 * The prompt templates (`templates/*.md`), checked against the catalogue and rendered by
 * name. The core never reads them itself: an entry point loads the files
 * (the prompt-template-files adapter) and hands the result to whatever builds prompts.
 */
import { PROMPT_TEMPLATES, type PromptTemplateName, type PromptValues } from './catalogue.js';
import { PromptTemplateError } from './errors.js';
import { parseTemplate, renderParsed, type ParsedTemplate } from './render.js';

export interface PromptTemplates {
  /** Where the templates were read from (a directory, for a person to find them). */
  readonly directory: string;
  /**
   * The named template rendered with `values`.
   *
   * @example
   * templates.render('section-anti_pattern', { level: 'warning', summary: '5 iterations stuck' })
   */
  render<Name extends PromptTemplateName>(name: Name, values: PromptValues<Name>): string;
  /** The templates rendered so far: what a test checks to find a template no code uses. */
  readonly rendered: ReadonlySet<PromptTemplateName>;
}

/**
 * Checks and parses the template texts (template name → text) found in `directory`: each
 * catalogue entry has its text, each text is in the catalogue, and each parses and uses
 * only the placeholders the catalogue gives it. Throws a PromptTemplateError naming the
 * template (and placeholder).
 *
 * @example
 * const templates = parsePromptTemplates(new Map([['iteration', '# Iteration {{iteration}}…'], …]), dir);
 */
export function parsePromptTemplates(
  texts: ReadonlyMap<string, string>,
  directory: string,
  extension = '.md',
): PromptTemplates {
  const expected = Object.keys(PROMPT_TEMPLATES) as PromptTemplateName[];
  const missing = expected.filter((name) => !texts.has(name));
  if (missing.length > 0)
    throw new PromptTemplateError(
      missing[0] ?? '*',
      `missing template file${missing.length === 1 ? '' : 's'} in ${directory}: ${missing.map((name) => `${name}${extension}`).join(', ')}`,
    );
  const unused = [...texts.keys()].filter((name) => !Object.hasOwn(PROMPT_TEMPLATES, name)).sort();
  if (unused.length > 0)
    throw new PromptTemplateError(
      unused[0] ?? '*',
      `template file${unused.length === 1 ? '' : 's'} no code renders in ${directory}: ${unused.map((name) => `${name}${extension}`).join(', ')} (add ${unused.length === 1 ? 'it' : 'them'} to PROMPT_TEMPLATES in lambdas/core/prompts/catalogue.ts, or delete ${unused.length === 1 ? 'it' : 'them'})`,
    );

  const parsed = new Map<PromptTemplateName, ParsedTemplate>();
  for (const name of expected) {
    const template = parseTemplate(name, texts.get(name) ?? '');
    const allowed: readonly string[] = PROMPT_TEMPLATES[name];
    const unknown = template.placeholders.find((placeholder) => !allowed.includes(placeholder));
    if (unknown !== undefined)
      throw new PromptTemplateError(
        name,
        `unknown placeholder {{${unknown}}}: the code provides ${allowed.length === 0 ? 'no values' : allowed.map((known) => `{{${known}}}`).join(', ')}`,
        { placeholder: unknown },
      );
    parsed.set(name, template);
  }

  const rendered = new Set<PromptTemplateName>();
  return {
    directory,
    rendered,
    render(name, values) {
      const template = parsed.get(name);
      // The catalogue was checked above; a name outside it only comes from untyped callers.
      if (!template) throw new PromptTemplateError(name, 'not in the catalogue');
      rendered.add(name);
      return renderParsed(template, values);
    },
  };
}
