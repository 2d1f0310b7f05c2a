/**
 * Reads the prompt templates from disk for the entry points (Lambda handlers, the runner,
 * the local stack, the CLI), which hand them to the core. The templates are part of the
 * shipped code, read once per process. Where they are:
 * - `$RALPH_PROMPT_TEMPLATES_DIR`, when set (trying out edited prompts without a rebuild);
 * - else `templates/` beside the bundle, in a Lambda (`lib/function-defaults.ts` copies it
 *   after bundling) and in the runner image (`agent/Dockerfile` copies it next to
 *   /app/main.mjs);
 * - else the tree's `lambdas/core/prompts/templates/`: the source tree's (under tsx and
 *   vitest), or its copy in dist/ for the compiled CLI (`npm run build` keeps the tree).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PromptTemplateError } from '../core/prompts/errors.js';
import { parsePromptTemplates, type PromptTemplates } from '../core/prompts/templates.js';

export const PROMPT_TEMPLATES_DIR_ENV = 'RALPH_PROMPT_TEMPLATES_DIR';
export const TEMPLATE_EXTENSION = '.md';

/**
 * Run from the source tree (tsx, vitest) or compiled file for file (dist/), this module is
 * its own file; bundled, it is not.
 */
const IN_TREE = /\/lambdas\/adapters\/prompt-template-files\.[jt]s$/.test(import.meta.url);

/** The templates shipped with the code: the tree's, or `templates/` beside the bundle. */
export const BUNDLED_TEMPLATES_DIR = fileURLToPath(
  new URL(IN_TREE ? '../core/prompts/templates/' : './templates/', import.meta.url),
);

/**
 * Reads and checks every template in `directory` (core/prompts/templates.ts says what is
 * checked). Throws a PromptTemplateError naming the template (and placeholder).
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
  const texts = new Map(
    files.map((file) => [
      file.slice(0, -TEMPLATE_EXTENSION.length),
      readFileSync(join(directory, file), 'utf8'),
    ]),
  );
  return parsePromptTemplates(texts, directory, TEMPLATE_EXTENSION);
}

let loaded: PromptTemplates | undefined;

/**
 * The process's templates, loaded on first use from `$RALPH_PROMPT_TEMPLATES_DIR` or the
 * shipped directory.
 *
 * @example
 * buildIterationPrompt({ ...input, templates: promptTemplates() });
 */
export function promptTemplates(): PromptTemplates {
  loaded ??= loadPromptTemplates(templatesDirectory());
  return loaded;
}

function templatesDirectory(): string {
  const override = process.env[PROMPT_TEMPLATES_DIR_ENV];
  return override !== undefined && override !== '' ? override : BUNDLED_TEMPLATES_DIR;
}
