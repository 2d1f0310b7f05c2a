/**
 * The prompt templates' renderer: a small, logic-less subset of Mustache, so that a person
 * can change what the agent is told by editing a markdown file, without reading code.
 *
 * Syntax (docs/prompts.md has examples):
 * - `{{name}}` inserts the value `name` verbatim: templates are markdown, nothing is escaped.
 *   A number prints as written (0 too); a missing value, null or false prints nothing.
 * - `{{#name}}…{{/name}}` keeps its content only when `name` is set: not undefined, null,
 *   false, '' or 0.
 * - `{{^name}}…{{/name}}` keeps its content only when `name` is not set.
 * - A line holding one block tag (`{{#…}}`, `{{^…}}`, `{{/…}}`) and nothing else but spaces
 *   disappears whole, newline included, so blocks can open and close on lines of their own.
 * - Trailing newlines of the result are dropped: the file's last line break does not count.
 *
 * A name is a letter followed by letters and digits (camelCase). A template holds no other
 * `{{` or `}}`. Values are inserted after parsing and never read as template text, so a value
 * (gate output, a story's text) may contain braces freely.
 *
 * Every problem throws a PromptTemplateError naming the template and, where there is one,
 * the placeholder: a malformed tag, a block left open or closed without being opened, and,
 * when rendering, a placeholder the values do not name.
 */
import { PromptTemplateError } from './errors.js';

export type TemplateValue = string | number | boolean | null | undefined;
export type TemplateValues = Readonly<Record<string, TemplateValue>>;

type Node =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'value'; readonly name: string }
  | {
      readonly type: 'block';
      readonly name: string;
      readonly inverted: boolean;
      readonly children: readonly Node[];
    };

export interface ParsedTemplate {
  readonly name: string;
  readonly nodes: readonly Node[];
  /** Every placeholder the template uses, values and blocks alike, in order of first use. */
  readonly placeholders: readonly string[];
}

const TAG = /\{\{([^{}]*)\}\}/g;
const TAG_BODY = /^\s*([#^/]?)\s*([A-Za-z][A-Za-z0-9]*)\s*$/;

interface Tag {
  start: number;
  end: number;
  sigil: '' | '#' | '^' | '/';
  name: string;
}

/**
 * Parses a template once, so that rendering it again costs no parsing and syntax errors
 * surface when the templates are loaded, not when a prompt is built.
 *
 * @example
 * parseTemplate('greeting', 'Hello {{name}}{{#late}}, at last{{/late}}.').placeholders
 * // ['name', 'late']
 */
export function parseTemplate(name: string, source: string): ParsedTemplate {
  const text = source.replace(/\r\n/g, '\n');
  const tags = scanTags(name, text);
  const root: Node[] = [];
  const open: { name: string; inverted: boolean; children: Node[]; line: number }[] = [];
  const placeholders: string[] = [];
  const current = (): Node[] => open.at(-1)?.children ?? root;
  let position = 0;
  for (const tag of tags) {
    if (tag.start > position)
      current().push({ type: 'text', text: text.slice(position, tag.start) });
    position = tag.end;
    if (!placeholders.includes(tag.name)) placeholders.push(tag.name);
    if (tag.sigil === '') current().push({ type: 'value', name: tag.name });
    else if (tag.sigil === '/') {
      const block = open.pop();
      if (block?.name !== tag.name)
        throw new PromptTemplateError(
          name,
          block
            ? `{{/${tag.name}}} on line ${lineOf(text, tag.start)} closes {{#${block.name}}} of line ${block.line}`
            : `{{/${tag.name}}} on line ${lineOf(text, tag.start)} closes a block that is not open`,
          { placeholder: tag.name },
        );
      current().push({
        type: 'block',
        name: block.name,
        inverted: block.inverted,
        children: block.children,
      });
    } else
      open.push({
        name: tag.name,
        inverted: tag.sigil === '^',
        children: [],
        line: lineOf(text, tag.start),
      });
  }
  const unclosed = open.at(-1);
  if (unclosed)
    throw new PromptTemplateError(
      name,
      `{{${unclosed.inverted ? '^' : '#'}${unclosed.name}}} on line ${unclosed.line} is never closed`,
      { placeholder: unclosed.name },
    );
  if (position < text.length) root.push({ type: 'text', text: text.slice(position) });
  return { name, nodes: root, placeholders };
}

/**
 * Renders a parsed template. Every placeholder it uses must be a key of `values` (a key
 * holding undefined counts: the value is simply not set).
 *
 * @example
 * renderParsed(parseTemplate('greeting', 'Hello {{name}}.'), { name: 'Ralph' }) // 'Hello Ralph.'
 */
export function renderParsed(template: ParsedTemplate, values: TemplateValues): string {
  for (const placeholder of template.placeholders)
    if (!Object.hasOwn(values, placeholder))
      throw new PromptTemplateError(
        template.name,
        `unknown placeholder {{${placeholder}}}: the code provides ${describeKeys(values)}`,
        { placeholder },
      );
  return renderNodes(template.nodes, values).replace(/\n+$/, '');
}

/**
 * Parses and renders in one step.
 *
 * @example
 * renderTemplate('greeting', '{{#late}}At last, {{/late}}{{name}}.', { name: 'Ralph', late: true })
 * // 'At last, Ralph.'
 */
export function renderTemplate(name: string, source: string, values: TemplateValues): string {
  return renderParsed(parseTemplate(name, source), values);
}

/** Whether a block `{{#name}}` shows its content. */
export function isSet(value: TemplateValue): boolean {
  return value !== undefined && value !== null && value !== false && value !== '' && value !== 0;
}

function renderNodes(nodes: readonly Node[], values: TemplateValues): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') out += node.text;
    else if (node.type === 'value') out += printed(values[node.name]);
    else if (isSet(values[node.name]) !== node.inverted) out += renderNodes(node.children, values);
  }
  return out;
}

function printed(value: TemplateValue): string {
  return value === undefined || value === null || value === false ? '' : String(value);
}

/** Every tag, a standalone block tag widened to its whole line. */
function scanTags(name: string, text: string): Tag[] {
  const tags: Tag[] = [];
  let checked = 0;
  for (const match of text.matchAll(TAG)) {
    // A brace touching a tag (Mustache's `{{{name}}}`) counts as stray: it would print.
    strayBraces(name, text, checked, Math.min(match.index + 1, text.length));
    checked = match.index + match[0].length;
    if (text[checked] === '}') strayBraces(name, text, checked - 1, checked + 1);
    const body = TAG_BODY.exec(match[1] ?? '');
    if (!body)
      throw new PromptTemplateError(
        name,
        `malformed tag ${match[0]} on line ${lineOf(text, match.index)}: expected {{name}}, {{#name}}, {{^name}} or {{/name}}`,
      );
    const sigil = (body[1] ?? '') as Tag['sigil'];
    const tag: Tag = { start: match.index, end: checked, sigil, name: body[2] ?? '' };
    if (sigil !== '') standalone(text, tag);
    tags.push(tag);
  }
  strayBraces(name, text, checked, text.length);
  return tags;
}

function strayBraces(name: string, text: string, from: number, to: number): void {
  const between = text.slice(from, to);
  const at = [between.indexOf('{{'), between.indexOf('}}')].filter((index) => index >= 0);
  if (at.length > 0)
    throw new PromptTemplateError(
      name,
      `stray braces on line ${lineOf(text, from + Math.min(...at))}: "{{" and "}}" only appear in tags`,
    );
}

/** A block tag alone on its line takes the line with it. */
function standalone(text: string, tag: Tag): void {
  const lineStart = text.lastIndexOf('\n', tag.start - 1) + 1;
  const newline = text.indexOf('\n', tag.end);
  const lineEnd = newline === -1 ? text.length : newline;
  const blank = (from: number, to: number) => /^[ \t]*$/.test(text.slice(from, to));
  if (!blank(lineStart, tag.start) || !blank(tag.end, lineEnd)) return;
  tag.start = lineStart;
  tag.end = newline === -1 ? text.length : newline + 1;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function describeKeys(values: TemplateValues): string {
  const keys = Object.keys(values);
  return keys.length === 0 ? 'no values' : keys.map((key) => `{{${key}}}`).join(', ');
}
