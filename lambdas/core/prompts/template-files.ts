/**
 * Loads the prompt templates (`templates/*.md`) once, checks them against the catalogue and
 * renders them by name.
 *
 * The core reads no files, with this one exception: the templates are part of the shipped
 * code, versioned and deployed with it, not external state, and they are read once per
 * process, synchronously, before the first prompt is built. Where they are:
 * - `$RALPH_PROMPT_TEMPLATES_DIR`, when set (trying out edited prompts without a rebuild);
 * - else `templates/` beside this module: the source tree under tsx and vitest, and beside
 *   the bundle in a Lambda (`lib/function-defaults.ts` copies it after bundling) and in the
 *   runner image (`agent/Dockerfile` copies it next to /app/main.mjs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROMPT_TEMPLATES, type PromptTemplateName, type PromptValues } from './catalogue.js';
import { PromptTemplateError } from './errors.js';
import { parseTemplate, renderParsed, type ParsedTemplate } from './render.js';

export const PROMPT_TEMPLATES_DIR_ENV = 'RALPH_PROMPT_TEMPLATES_DIR';
export const TEMPLATE_EXTENSION = '.md';

/** The templates shipped with the code. */
export const BUNDLED_TEMPLATES_DIR = fileURLToPath(new URL('./templates/', import.meta.url));

export interface PromptTemplates {
  /** Where the templates were read from. */
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
 * Reads and checks every template in `directory`: each catalogue entry has its file, each
 * `.md` file is in the catalogue, and each file parses and uses only the placeholders the
 * catalogue gives it. Throws a PromptTemplateError naming the template (and placeholder).
 *
 * @example
 * const templates = loadPromptTemplates('/tmp/edited-prompts');
 */
export function loadPromptTemplates(directory: string): PromptTemplates {
  let files: string[];
  try {
    files = readdirSync(directory).filter((file) => file.endsWith(TEMPLATE_EXTENSION));
  } catch (error) {
    throw new PromptTemplateError('*', `cannot read the templates directory ${directory}`, {
      cause: error,
    });
  }
  const present = new Set(files.map((file) => file.slice(0, -TEMPLATE_EXTENSION.length)));
  const expected = Object.keys(PROMPT_TEMPLATES) as PromptTemplateName[];
  const missing = expected.filter((name) => !present.has(name));
  if (missing.length > 0)
    throw new PromptTemplateError(
      missing[0] ?? '*',
      `missing template file${missing.length === 1 ? '' : 's'} in ${directory}: ${missing.map((name) => `${name}${TEMPLATE_EXTENSION}`).join(', ')}`,
    );
  const unused = [...present].filter((name) => !Object.hasOwn(PROMPT_TEMPLATES, name)).sort();
  if (unused.length > 0)
    throw new PromptTemplateError(
      unused[0] ?? '*',
      `template file${unused.length === 1 ? '' : 's'} no code renders in ${directory}: ${unused.map((name) => `${name}${TEMPLATE_EXTENSION}`).join(', ')} (add ${unused.length === 1 ? 'it' : 'them'} to PROMPT_TEMPLATES in lambdas/core/prompts/catalogue.ts, or delete ${unused.length === 1 ? 'it' : 'them'})`,
    );

  const parsed = new Map<PromptTemplateName, ParsedTemplate>();
  for (const name of expected) {
    const template = parseTemplate(
      name,
      readFileSync(join(directory, `${name}${TEMPLATE_EXTENSION}`), 'utf8'),
    );
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

let loaded: PromptTemplates | undefined;

/**
 * The process's templates, loaded on first use from `$RALPH_PROMPT_TEMPLATES_DIR` or the
 * shipped directory.
 *
 * @example
 * promptTemplates().render('role-debugger', {})
 */
export function promptTemplates(): PromptTemplates {
  loaded ??= loadPromptTemplates(templatesDirectory());
  return loaded;
}

function templatesDirectory(): string {
  // The one setting the core reads itself: it picks the shipped code's own files, before any
  // handler or runner could pass configuration in.
  // eslint-disable-next-line no-restricted-properties
  const override = process.env[PROMPT_TEMPLATES_DIR_ENV];
  return override !== undefined && override !== '' ? override : BUNDLED_TEMPLATES_DIR;
}
