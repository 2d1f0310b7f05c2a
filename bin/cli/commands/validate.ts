import { basename } from 'node:path';
import { parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import { PrdSchema } from '../../../lambdas/core/schemas/prd.js';
import { RunConfigSchema } from '../../../lambdas/core/schemas/config.js';
import { storiesInPriorityOrder } from '../../../lambdas/core/ralph/prd.js';
import type { Output } from '../output.js';
import { readJson } from '../run-input.js';
import { EXIT } from '../exit-codes.js';

/** `ralph validate FILE`: checks a prd.json or ralph.config.json without running anything. */
export async function validateCommand(
  file: string,
  options: { kind?: 'prd' | 'config' },
  output: Output,
): Promise<number> {
  const value = await readJson(file);
  const kind = options.kind ?? guessKind(file, value);
  if (kind === 'prd') {
    const prd = parseOrThrow(PrdSchema, value, file);
    const open = storiesInPriorityOrder(prd.userStories).filter((story) => !story.passes);
    output.line(
      `${file}: valid prd.json — ${prd.userStories.length} stories, ${open.length} open; next: ${open[0]?.id ?? 'none'}`,
    );
    output.data({ file, kind, valid: true, stories: prd.userStories.length, open: open.length });
  } else {
    const config = parseOrThrow(RunConfigSchema, value, file);
    output.line(`${file}: valid ralph.config.json — ${config.gates.length} gates`);
    output.data({ file, kind, valid: true, config });
  }
  return EXIT.ok;
}

function guessKind(file: string, value: unknown): 'prd' | 'config' {
  if (typeof value === 'object' && value !== null && 'userStories' in value) return 'prd';
  return basename(file).includes('config') ? 'config' : 'prd';
}
