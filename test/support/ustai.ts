/**
 * The UStAI fixture (1,260 user stories with human QUS labels; see
 * test/fixtures/stories/ustai/SOURCE.md): detector tests quote real stories from it, and
 * check that each quote is in the file as written, so that an example cannot drift from
 * the data it claims to come from.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const USTAI_CSV = fileURLToPath(
  new URL('../fixtures/stories/ustai/UStAI-annotated_updated.csv', import.meta.url),
);

let raw: string | undefined;

/** The fixture's text, read once. */
export function ustaiText(): string {
  raw ??= readFileSync(USTAI_CSV, 'utf8');
  return raw;
}

/**
 * The fixture's row for `id`, as text: where a test finds the story and the labels people
 * gave it (`conjunctions`, `brackets`, …).
 *
 * @example
 * ustaiRow('A1US2Ge'); // 'A1US2Ge,A1,US1,Gemini_1.5_flash,city planner,"As a city planner, …'
 */
export function ustaiRow(id: string): string {
  const start = ustaiText().indexOf(`\n${id},`);
  if (start < 0) throw new Error(`no row ${id} in ${USTAI_CSV}`);
  const next = ustaiText()
    .slice(start + 1)
    .search(/\n[A-Z]\d+US\d+\w*,/);
  return ustaiText().slice(start + 1, next < 0 ? undefined : start + 1 + next);
}
