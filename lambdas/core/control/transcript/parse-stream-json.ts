/**
 * An agent transcript as a list of events: Claude Code `--output-format stream-json
 * --verbose` lines (also inside the runner's transcript.jsonl, where other output lines are
 * wrapped as `{"type":"text","stream",...}`), or plain text from any other agent. Never
 * throws: a line that should be JSON and is not is skipped and counted.
 */
import { z } from 'zod';
import { AgentModelUsageSchema, type AgentModelUsage } from '../../schemas/cost-receipt.js';
import { TranscriptFormatSchema } from '../../schemas/observation.js';

export const TranscriptEventSchema = z.discriminatedUnion('kind', [
  /** The agent called a tool. */
  z.object({
    kind: z.literal('tool_use'),
    id: z.string().optional(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
  /** What a tool call gave back; `text` is its content flattened. */
  z.object({
    kind: z.literal('tool_result'),
    toolUseId: z.string().optional(),
    isError: z.boolean(),
    text: z.string(),
  }),
  /** What the agent said. */
  z.object({ kind: z.literal('assistant_text'), text: z.string() }),
  /** The final `result` event, with what the session took when it says. */
  z.object({
    kind: z.literal('result'),
    subtype: z.string().optional(),
    isError: z.boolean(),
    text: z.string(),
    durationMs: z.number().nonnegative().optional(),
    costUsd: z.number().nonnegative().optional(),
    turns: z.number().int().nonnegative().optional(),
    /** The session's tokens (`usage`): input counts the cache reads and writes too. */
    tokens: z
      .object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() })
      .optional(),
    /** Of `tokens.input`, those read from and written to the prompt cache (when any were). */
    cache: z
      .object({ read: z.number().int().nonnegative(), write: z.number().int().nonnegative() })
      .optional(),
    /** Per model (`modelUsage`), when the session says: a session may use more than one. */
    models: z.array(AgentModelUsageSchema).optional(),
  }),
  /** The `system` `init` event: the session started (its model and working directory). */
  z.object({
    kind: z.literal('session'),
    model: z.string().optional(),
    cwd: z.string().optional(),
  }),
  /** A line of plain output: a plain agent's, or one the runner wrapped (`runner`: its notes). */
  z.object({
    kind: z.literal('line'),
    stream: z.enum(['stdout', 'stderr', 'runner']),
    text: z.string(),
  }),
]);
export type TranscriptEvent = z.infer<typeof TranscriptEventSchema>;

export const ParsedTranscriptSchema = z.object({
  /** `stream-json` when any line is a Claude Code event, else `plain`. */
  format: TranscriptFormatSchema,
  events: z.array(TranscriptEventSchema),
  /** stream-json lines that were not JSON objects (cut off, interleaved output): skipped. */
  malformedLines: z.number().int().nonnegative(),
  /** The agent's working directory, from the `system` `init` event. */
  cwd: z.string().optional(),
});
export type ParsedTranscript = z.infer<typeof ParsedTranscriptSchema>;

type Json = Record<string, unknown>;

const CLAUDE_EVENT_TYPES = new Set(['system', 'assistant', 'user', 'result', 'stream_event']);
const WRAPPED_STREAMS = new Set(['stdout', 'stderr', 'runner']);

function jsonObject(line: string): Json | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A tool result's content: a string, or blocks of which the text ones count. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function messageBlocks(event: Json): unknown[] {
  const message = event.message;
  if (!isRecord(message)) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? message.content : [];
}

function assistantEvents(event: Json): TranscriptEvent[] {
  const events: TranscriptEvent[] = [];
  for (const block of messageBlocks(event)) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string')
      events.push({ kind: 'assistant_text', text: block.text });
    else if (block.type === 'tool_use' && typeof block.name === 'string')
      events.push({
        kind: 'tool_use',
        ...(typeof block.id === 'string' ? { id: block.id } : {}),
        name: block.name,
        input: isRecord(block.input) ? block.input : {},
      });
  }
  return events;
}

function userEvents(event: Json): TranscriptEvent[] {
  const events: TranscriptEvent[] = [];
  for (const block of messageBlocks(event)) {
    if (!isRecord(block) || block.type !== 'tool_result') continue;
    events.push({
      kind: 'tool_result',
      ...(typeof block.tool_use_id === 'string' ? { toolUseId: block.tool_use_id } : {}),
      isError: block.is_error === true,
      text: contentText(block.content),
    });
  }
  return events;
}

/** A field that is a non-negative number, as `{ [name]: value }`, or nothing. */
function figure<K extends string>(name: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? ({ [name]: value } as Record<K, number>)
    : {};
}

function resultEvent(event: Json): TranscriptEvent {
  return {
    kind: 'result',
    ...(typeof event.subtype === 'string' ? { subtype: event.subtype } : {}),
    isError: event.is_error === true,
    text: typeof event.result === 'string' ? event.result : '',
    ...figure('durationMs', event.duration_ms),
    ...figure('costUsd', event.total_cost_usd),
    ...(Number.isInteger(event.num_turns) ? figure('turns', event.num_turns) : {}),
    ...tokensOf(event.usage),
    ...modelsOf(event.modelUsage),
  };
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;

/** Claude Code's `usage`: every kind of input token summed (what is billed as input). */
function tokensOf(usage: unknown): {
  tokens?: { input: number; output: number };
  cache?: { read: number; write: number };
} {
  if (!isRecord(usage)) return {};
  const output = usage.output_tokens;
  if (typeof output !== 'number') return {};
  const read = count(usage.cache_read_input_tokens);
  const write = count(usage.cache_creation_input_tokens);
  const input = count(usage.input_tokens) + write + read;
  return {
    tokens: { input, output: count(output) },
    ...(read + write > 0 ? { cache: { read, write } } : {}),
  };
}

/**
 * Claude Code's `modelUsage`: model id → `inputTokens` (uncached), `outputTokens`,
 * `cacheReadInputTokens`, `cacheCreationInputTokens`, `costUSD`. Entries without token
 * counts are left out.
 */
function modelsOf(modelUsage: unknown): { models?: AgentModelUsage[] } {
  if (!isRecord(modelUsage)) return {};
  const models: AgentModelUsage[] = [];
  for (const [model, usage] of Object.entries(modelUsage)) {
    if (model === '' || !isRecord(usage) || typeof usage.outputTokens !== 'number') continue;
    models.push({
      model,
      inputTokens: count(usage.inputTokens),
      outputTokens: count(usage.outputTokens),
      cacheReadTokens: count(usage.cacheReadInputTokens),
      cacheWriteTokens: count(usage.cacheCreationInputTokens),
      ...figure('costUsd', usage.costUSD),
    });
  }
  return models.length > 0 ? { models } : {};
}

function sessionEvents(event: Json): TranscriptEvent[] {
  if (event.subtype !== 'init') return [];
  return [
    {
      kind: 'session',
      ...(typeof event.model === 'string' ? { model: event.model } : {}),
      ...(typeof event.cwd === 'string' ? { cwd: event.cwd } : {}),
    },
  ];
}

function claudeEvents(event: Json): TranscriptEvent[] {
  switch (event.type) {
    case 'system':
      return sessionEvents(event);
    case 'assistant':
      return assistantEvents(event);
    case 'user':
      return userEvents(event);
    case 'result':
      return [resultEvent(event)];
    case 'text':
      return typeof event.text === 'string' &&
        typeof event.stream === 'string' &&
        WRAPPED_STREAMS.has(event.stream)
        ? [
            {
              kind: 'line',
              stream: event.stream as 'stdout' | 'stderr' | 'runner',
              text: event.text,
            },
          ]
        : [];
    default:
      // stream_event and types still to come carry nothing analysed here.
      return [];
  }
}

/**
 * One transcript line as events, read on its own (a live transcript arrives a line at a
 * time): `undefined` when it is none of the transcript's events (not JSON, or a JSON object
 * of a type neither Claude Code nor the runner writes), `[]` for an event that carries
 * nothing shown (a `stream_event`, a user message without tool results).
 *
 * @example
 * transcriptLineEvents('{"type":"text","stream":"stdout","text":"hi"}')
 * // [{ kind: 'line', stream: 'stdout', text: 'hi' }]
 */
export function transcriptLineEvents(line: string): TranscriptEvent[] | undefined {
  const event = jsonObject(line.replace(/\r$/, '').trim());
  const type = event?.type;
  const known = typeof type === 'string' && (CLAUDE_EVENT_TYPES.has(type) || type === 'text');
  return event && known ? claudeEvents(event) : undefined;
}

/**
 * Splits a transcript into events. stream-json: assistant text and tool calls, tool
 * results, the final result, wrapped lines. Plain: one `line` event per line (a wrapped
 * transcript.jsonl line counts as its text).
 *
 * @example
 * const { format, events, malformedLines } = parseTranscript(transcriptJsonl);
 */
export function parseTranscript(text: string): ParsedTranscript {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, '').trim());
  const parsed = lines.map(jsonObject);
  const isStreamJson = parsed.some(
    (event) => typeof event?.type === 'string' && CLAUDE_EVENT_TYPES.has(event.type),
  );
  if (!isStreamJson) {
    const events: TranscriptEvent[] = [];
    lines.forEach((line, index) => {
      const wrapped = parsed[index];
      const [event] = wrapped?.type === 'text' ? claudeEvents(wrapped) : [];
      if (event) events.push(event);
      else if (line !== '') events.push({ kind: 'line', stream: 'stdout', text: line });
    });
    return { format: 'plain', events, malformedLines: 0 };
  }
  const events: TranscriptEvent[] = [];
  let malformedLines = 0;
  let cwd: string | undefined;
  lines.forEach((line, index) => {
    if (line === '') return;
    const event = parsed[index];
    if (!event) {
      malformedLines += 1;
      return;
    }
    if (event.type === 'system' && event.subtype === 'init' && typeof event.cwd === 'string')
      cwd ??= event.cwd;
    events.push(...claudeEvents(event));
  });
  return { format: 'stream-json', events, malformedLines, ...(cwd ? { cwd } : {}) };
}
