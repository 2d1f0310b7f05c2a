/**
 * What the runner saw of one iteration beyond its outcome (design §3.1, §3.2): the size of
 * the change, the counts its gates printed, and what the agent did. Reported in
 * result.json and kept on the iteration record.
 */
import { z } from 'zod';
import { GateOutputCountsSchema } from './gate-counts.js';

const Count = z.number().int().nonnegative();

/** How the agent's output was written: Claude Code's stream-json, or plain text. */
export const TRANSCRIPT_FORMATS = ['stream-json', 'plain'] as const;
export const TranscriptFormatSchema = z.enum(TRANSCRIPT_FORMATS);
export type TranscriptFormat = z.infer<typeof TranscriptFormatSchema>;

/** The agent's activity, as kept on the record (the analysis without its long lists). */
export const AgentActivitySchema = z.object({
  format: TranscriptFormatSchema,
  /** Files the Read tools read, relative to the agent's directory, first reading first. */
  filesRead: z.array(z.string()),
  /** Files Write / Edit / MultiEdit / NotebookEdit wrote, first write first. */
  filesWritten: z.array(z.string()),
  /** Shell commands in order (Bash tool; `$ ` lines of plain output). */
  commandsRun: z.array(z.string()),
  /** Tool name → calls. */
  toolsUsed: z.record(z.string(), Count),
  isExploratory: z.boolean(),
  isStuckPattern: z.boolean(),
  isThrashing: z.boolean(),
  /** Distinct error lines (normalised), first seen first. */
  errorsSeen: z.array(z.string()),
  /** (occurrences − distinct) ÷ occurrences: the share of errors seen before. */
  errorRepetitionRate: z.number().min(0).max(1),
  questionsAsked: Count,
  testsWritten: z.boolean(),
  testsRun: z.boolean(),
  lintRun: z.boolean(),
  securityScanRun: z.boolean(),
  stuckProbability: z.number().min(0).max(1),
});
export type AgentActivity = z.infer<typeof AgentActivitySchema>;

export const RunnerObservationSchema = z.object({
  /** Of the change, committed or kept as evidence (0 when there was none). */
  linesAdded: Count,
  linesRemoved: Count,
  /** Gate name → test and diagnostic counts read from its full output. */
  gateCounts: z.record(z.string(), GateOutputCountsSchema).default({}),
  /** Absent when the agent never ran (the workspace was missing, say). */
  agent: AgentActivitySchema.optional(),
});
export type RunnerObservation = z.infer<typeof RunnerObservationSchema>;
