export {
  AgentOutputAnalysisSchema,
  analyseAgentOutput,
  findRepeatedSequence,
  OutputAnalysisConfigSchema,
  type AgentOutputAnalysis,
  type OutputAnalysisConfig,
  type OutputAnalysisOptions,
} from './analyse-output.js';
export { isLintCommand, isSecurityScanCommand, isTestCommand, simpleCommands } from './commands.js';
export {
  ParsedTranscriptSchema,
  parseTranscript,
  TRANSCRIPT_FORMATS,
  TranscriptEventSchema,
  TranscriptFormatSchema,
  type ParsedTranscript,
  type TranscriptEvent,
  type TranscriptFormat,
} from './parse-stream-json.js';
export {
  assumptionsIn,
  errorLines,
  normaliseErrorLine,
  questionsTo,
  sentences,
} from './text-signals.js';
