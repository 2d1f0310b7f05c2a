/**
 * The agent's tool calls in a transcript, and what they add up to: the files it read and
 * wrote, the shell commands it ran, its calls per tool, and what it said in between.
 */
import { normalisePath } from '../signals/file-kinds.js';
import type { ParsedTranscript, TranscriptEvent } from './parse-stream-json.js';

const READ_TOOLS = new Set(['Read', 'NotebookRead', 'Grep', 'Glob', 'LS']);
const FILE_READ_TOOLS = new Set(['Read', 'NotebookRead']);
export const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
export const SHELL_TOOLS = new Set(['Bash']);
const CALL_LABEL_MAX = 80;

export interface Call {
  name: string;
  /** Equal calls have equal keys: the name and the whole input, keys sorted. */
  key: string;
  label: string;
  path?: string;
  command?: string;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function relativePath(path: string, cwd: string | undefined): string {
  const normalised = normalisePath(path);
  if (!cwd) return normalised;
  const root = `${normalisePath(cwd)}/`;
  return normalised.startsWith(root) ? normalised.slice(root.length) : normalised;
}

export function toCall(event: Extract<TranscriptEvent, { kind: 'tool_use' }>, cwd?: string): Call {
  const { name, input } = event;
  const rawPath = input.file_path ?? input.notebook_path;
  const path = typeof rawPath === 'string' ? relativePath(rawPath, cwd) : undefined;
  const command =
    SHELL_TOOLS.has(name) && typeof input.command === 'string' ? input.command : undefined;
  const subject = command ?? path ?? (typeof input.pattern === 'string' ? input.pattern : '');
  const label = `${name} ${subject}`.trim().slice(0, CALL_LABEL_MAX);
  return {
    name,
    key: `${name}:${stableJson(input)}`,
    label,
    ...(path === undefined ? {} : { path }),
    ...(command === undefined ? {} : { command }),
  };
}

/**
 * The longest back-to-back repetition of a run of at most `maxLength` calls, if one repeats
 * at least `minRepeats` times.
 */
export function findRepeatedSequence(
  keys: readonly string[],
  maxLength: number,
  minRepeats: number,
): { start: number; length: number; repeats: number } | undefined {
  let best: { start: number; length: number; repeats: number } | undefined;
  for (let length = 1; length <= maxLength; length += 1) {
    for (let start = 0; start + length * minRepeats <= keys.length;) {
      // Positions that keep the period `length` from `start` on.
      let end = start + length;
      while (end < keys.length && keys[end] === keys[end - length]) end += 1;
      const repeats = Math.floor((end - start) / length);
      if (repeats >= minRepeats && (!best || repeats > best.repeats))
        best = { start, length, repeats };
      // A later start inside the same periodic stretch cannot repeat more often.
      start += repeats > 1 ? (repeats - 1) * length : 1;
    }
  }
  return best;
}

/** What the agent did, in the order it did it. */
export interface AgentActions {
  calls: Call[];
  /** Tool call id → tool name, to tell a shell command's result from a file read's. */
  toolNames: Map<string, string>;
  /** Tool name → calls. */
  toolsUsed: Record<string, number>;
  /** The agent's own words; in a plain transcript, every stdout line but the commands. */
  said: string[];
  /** Shell commands: the Bash tool's, then a plain transcript's `$ ` lines. */
  commands: string[];
  filesRead: string[];
  filesWritten: string[];
  readCalls: number;
  writeCalls: number;
}

const unique = (values: readonly string[]): string[] => [...new Set(values)];

/**
 * The agent's actions in a parsed transcript, paths made relative to `cwd`.
 *
 * @example
 * collectActions(parseTranscript(jsonl), '/repo').filesWritten // ['src/a.ts']
 */
export function collectActions(
  transcript: ParsedTranscript,
  cwd: string | undefined,
): AgentActions {
  const calls: Call[] = [];
  const toolNames = new Map<string, string>();
  const toolsUsed: Record<string, number> = {};
  const said: string[] = [];
  const plainCommands: string[] = [];
  for (const event of transcript.events) {
    if (event.kind === 'tool_use') {
      calls.push(toCall(event, cwd));
      if (event.id !== undefined) toolNames.set(event.id, event.name);
      toolsUsed[event.name] = (toolsUsed[event.name] ?? 0) + 1;
    } else if (event.kind === 'assistant_text') said.push(event.text);
    else if (event.kind === 'line' && event.stream === 'stdout' && transcript.format === 'plain') {
      if (event.text.startsWith('$ ')) plainCommands.push(event.text.slice(2).trim());
      else said.push(event.text);
    }
  }
  const writes = calls.filter((call) => WRITE_TOOLS.has(call.name));
  return {
    calls,
    toolNames,
    toolsUsed,
    said,
    commands: [
      ...calls.flatMap((call) => (call.command === undefined ? [] : [call.command])),
      ...plainCommands,
    ],
    filesRead: unique(
      calls.flatMap((call) => (FILE_READ_TOOLS.has(call.name) && call.path ? [call.path] : [])),
    ),
    filesWritten: unique(writes.flatMap((call) => (call.path ? [call.path] : []))),
    readCalls: calls.filter((call) => READ_TOOLS.has(call.name)).length,
    writeCalls: writes.length,
  };
}
