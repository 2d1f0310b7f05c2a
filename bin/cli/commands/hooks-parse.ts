import { readFile } from 'node:fs/promises';
import type { ErrorSource } from '../../../lambdas/core/schemas/error-event.js';
import { normalise } from '../../../lambdas/core/incidents/normalise.js';
import { SENTRY_RESOURCE_HEADER } from '../../../lambdas/core/incidents/sentry.js';
import { SENTRY_RESOURCES } from '../../../lambdas/core/incidents/sentry-payloads.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { renderNormalised } from '../hooks-render.js';
import type { Output } from '../output.js';

export interface HooksParseOptions {
  /** Sentry only: the `Sentry-Hook-Resource` header the delivery came with. */
  resource?: string;
}

/**
 * `ralph hooks parse SOURCE FILE`: prints the error events a recorded delivery becomes, the
 * way the hooks normalise it, without starting or writing anything. A delivery that is valid
 * but no error (an installation, an alarm back to OK) prints why and exits 0; one the hooks
 * would refuse exits 2 with every problem's path (InvalidInputError).
 *
 * @example
 * await hooksParseCommand('sentry', 'issue.json', { resource: 'issue' }, output);
 */
export async function hooksParseCommand(
  source: ErrorSource,
  file: string,
  options: HooksParseOptions,
  output: Output,
): Promise<number> {
  const headers = headersFor(source, options.resource);
  let body: string;
  try {
    body = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, EXIT.invalidInput);
  }
  const result = normalise(source, headers, body);
  for (const line of renderNormalised(result)) output.line(line);
  output.data({ source, file, ...result });
  return EXIT.ok;
}

/** The headers the delivery came with, as far as normalising reads them. */
function headersFor(source: ErrorSource, resource: string | undefined): Record<string, string> {
  if (source !== 'sentry') {
    if (resource !== undefined)
      throw new CliError(
        `--resource is Sentry's ${SENTRY_RESOURCE_HEADER} header; a ${source} delivery has none, so leave it out`,
        EXIT.invalidInput,
      );
    return {};
  }
  if (resource === undefined)
    throw new CliError(
      `a Sentry delivery's resource is in its ${SENTRY_RESOURCE_HEADER} header, not its body: pass --resource with it (${SENTRY_RESOURCES.join(', ')})`,
      EXIT.invalidInput,
    );
  return { [SENTRY_RESOURCE_HEADER]: resource };
}
