/**
 * A user story as ralph-cloud's evaluation reads it (the dual-mode design's story
 * document): one per piece of feedback, under a stable id.
 */
export interface StoryDocument {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly acceptance_criteria: readonly string[];
  /** Where in the code the change belongs; null when the writer cannot tell. */
  readonly technical_area: string | null;
  readonly services: readonly string[];
  /** The feedback the story was written from. */
  readonly source_conversations: readonly string[];
}
