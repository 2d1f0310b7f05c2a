import { RalphError } from '../errors.js';

/**
 * A prompt template that cannot be used: a missing or unused file, a malformed tag, a block
 * left open, or a placeholder the code does not provide. Always a defect of the shipped
 * templates or the code, never of a run's input, so nothing retries it.
 */
export class PromptTemplateError extends RalphError {
  /** The template's name: its file name without `.md`. */
  readonly template: string;
  /** The placeholder at fault, when one is. */
  readonly placeholder: string | undefined;

  constructor(
    template: string,
    problem: string,
    options?: ErrorOptions & { placeholder?: string },
  ) {
    super(`prompt template "${template}": ${problem}`, { ...options, code: 'PROMPT_TEMPLATE' });
    this.name = 'PromptTemplateError';
    this.template = template;
    this.placeholder = options?.placeholder;
  }
}
