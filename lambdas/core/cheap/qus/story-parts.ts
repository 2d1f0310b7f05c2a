/**
 * A user story's parts in the Connextra template and its variants ("As a <role>, I want
 * <means>, so that <ends>"), as QUS names them, found by their markers. Each part is a span
 * of the original text, so that a detector's evidence quotes the story as written.
 */

/** Half-open character range `[start, end)` of the story's text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The markers that open each part, lower-cased with single spaces: the story's template. */
export interface StoryTemplate {
  readonly role: string | null;
  readonly means: string | null;
  readonly ends: string | null;
}

export interface StoryParts {
  readonly text: string;
  readonly role: Span | null;
  readonly means: Span | null;
  readonly ends: Span | null;
  readonly template: StoryTemplate;
}

/** "As a", "As an", "As the", "As" at the start (after any leading space or list marker). */
const ROLE_MARKER = /^[\s\-*•\d.)]*\b(as(?:\s+(?:an?|the))?)\s+/i;
/**
 * What the role wants: "I want", "I need", "I can", "I would like", "I'd like", "we want",
 * "I am able to", "I aim to", "I expect"… the first one after the role.
 */
const MEANS_MARKER =
  /\b((?:i|we)(?:\s+(?:really|also|would|should|must|will))?\s+(?:want|need|wish|can|could|like|love|expect|require|aim|am able|are able|be able|have to)|i'd like|i'd love|i'm able|we'd like)\b/gi;
/**
 * What opens the ends (the reason): "so that", "so" before a subject, "in order to".
 */
const ENDS_MARKER =
  /\b(so\s+that|so\s+(?=(?:i|we|my|our|the|it|they|their|users?|he|she|you|this|patients?|staff|everyone|all)\b)|in\s+order\s+(?:to|that))\b/gi;
/**
 * A purpose clause after a comma that says why (", reducing my risk", ", to advance …"):
 * QUS's ends without a marker. "using", "including" and the like describe the means instead.
 */
const COMMA_ENDS =
  /,\s+((?!(?:using|including|containing|regarding|following|incorporating|integrating|considering|combining|spanning|covering|involving)\b)[a-z]+ing|to\s+(?!(?:the|a|an|my|our|their|its|his|her|be)\b)[a-z]+)\b/gi;

/** Whether the code unit is white space or `,;:` (and, at the end of a part, `.!?`). */
function isTrimmed(code: number, atEnd: boolean): boolean {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0) return true;
  if (code === 0x2c || code === 0x3b || code === 0x3a) return true;
  return atEnd && (code === 0x2e || code === 0x21 || code === 0x3f);
}

/** `[start, end)` without the spaces and separators around it; `null` when nothing is left. */
function span(start: number, end: number, text: string): Span | null {
  let from = start;
  let to = end;
  while (from < to && isTrimmed(text.charCodeAt(from), false)) from += 1;
  while (to > from && isTrimmed(text.charCodeAt(to - 1), true)) to -= 1;
  return to > from ? { start: from, end: to } : null;
}

/** The first match of a global `pattern` in `text` from `from` on (no slice of the text). */
function execFrom(pattern: RegExp, text: string, from: number): RegExpExecArray | null {
  pattern.lastIndex = from;
  return pattern.exec(text);
}

/** A marker's words in lower case, single-spaced (most are already: no regex for those). */
function marker(words: string): string {
  const lower = words.toLowerCase();
  return /\s\s|[\t\n\r\u00a0]/.test(lower) ? lower.replace(/\s+/g, ' ').trim() : lower;
}

/** The ends' marker: its words, or the shape of a clause after a comma (", -ing", ", to"). */
function endsMarker(match: RegExpExecArray): string {
  if (!match[0].startsWith(',')) return marker(match[1]!);
  return /^to\s/i.test(match[1]!) ? ', to' : ', -ing';
}

/**
 * Finds the role, means and ends of a story sentence. A part the story does not have is
 * `null`; the template names the markers found (`null` where there is none).
 *
 * @example
 * const parts = parseStory('As a driver, I want alerts, so that I brake in time.');
 * parts.text.slice(parts.means!.start, parts.means!.end); // 'alerts'
 * parts.template; // { role: 'as a', means: 'i want', ends: 'so that' }
 */
export function parseStory(text: string): StoryParts {
  const roleMatch = ROLE_MARKER.exec(text);
  const afterRole = roleMatch ? roleMatch.index + roleMatch[0].length : 0;
  const meansMatch = execFrom(MEANS_MARKER, text, afterRole);
  const meansMarkerStart = meansMatch ? meansMatch.index : -1;
  const meansStart = meansMatch ? meansMarkerStart + meansMatch[0].length : -1;

  let endsMatch: RegExpExecArray | null = null;
  let endsStart = -1;
  if (meansMatch) {
    endsMatch = execFrom(ENDS_MARKER, text, meansStart) ?? execFrom(COMMA_ENDS, text, meansStart);
    if (endsMatch) endsStart = endsMatch.index;
  }

  // The role is a noun phrase: it ends at the means marker or at the first comma before it.
  const roleEnd = meansMatch ? meansMarkerStart : text.length;
  const comma = text.indexOf(',', afterRole);
  const role = roleMatch
    ? span(afterRole, comma >= 0 && comma < roleEnd ? comma : roleEnd, text)
    : null;
  const means = meansMatch
    ? span(meansStart, endsStart >= 0 ? endsStart : text.length, text)
    : null;
  // The ends keeps its marker ("so that I brake in time"): it is what a reader quotes.
  const ends = endsStart >= 0 ? span(endsStart, text.length, text) : null;
  return {
    text,
    role: roleMatch ? role : null,
    means,
    ends,
    template: {
      role: roleMatch ? marker(roleMatch[1]!) : null,
      means: meansMatch ? marker(meansMatch[1]!) : null,
      ends: endsMatch ? endsMarker(endsMatch) : null,
    },
  };
}

/**
 * The text of a span.
 *
 * @example
 * partText(parts, parts.role); // 'driver'
 */
export function partText(parts: StoryParts, part: Span | null): string {
  return part ? parts.text.slice(part.start, part.end) : '';
}
