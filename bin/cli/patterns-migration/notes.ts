/** The migration report's notes: what the counts alone do not say. */
import { normaliseText, type Candidate } from './candidates.js';
import type { FlatScopingRule } from './scoping-rules.js';
import type { ServicePaths } from './tech-paths.js';
import { V1_PATTERN_FIELDS, V1_TOP_LEVEL_FIELDS, type PatternFileV1 } from './v1-schema.js';

/** What the report says beside the counts: fields not carried over, doubts, assumptions. */
export function migrationNotes(
  file: PatternFileV1,
  rules: readonly FlatScopingRule[],
  kept: readonly Candidate[],
  services: readonly ServicePaths[],
  dating: { assumedUtc: number; rulesDated: string },
): string[] {
  const { assumedUtc, rulesDated } = dating;
  return [
    ...noteUnknownFields(file, rules),
    ...noteOppositeTypes(kept),
    ...(assumedUtc > 0 ? [`${assumedUtc} timestamps had no time zone and were read as UTC`] : []),
    ...(rules.length > 0
      ? [
          `scoping rules carry no date: their patterns are dated ${rulesDated} (${file.last_updated ? 'the last_updated of the file' : 'the migration time'})`,
        ]
      : []),
    ...noteServices(services),
  ];
}

function noteUnknownFields(
  file: { patterns: readonly Record<string, unknown>[] } & Record<string, unknown>,
  rules: readonly { at: string; extraFields: readonly string[] }[],
): string[] {
  const notes: string[] = [];
  for (const field of Object.keys(file))
    if (!V1_TOP_LEVEL_FIELDS.includes(field))
      notes.push(`top-level field "${field}" has no v2 counterpart: not carried over`);
  const where = new Map<string, string[]>();
  file.patterns.forEach((pattern, index) => {
    for (const field of Object.keys(pattern))
      if (!V1_PATTERN_FIELDS.includes(field))
        where.set(field, [...(where.get(field) ?? []), `patterns[${index}]`]);
  });
  for (const rule of rules)
    for (const field of rule.extraFields) where.set(field, [...(where.get(field) ?? []), rule.at]);
  for (const [field, ats] of where) {
    const shown = ats.length > 3 ? `${ats.slice(0, 3).join(', ')}, …` : ats.join(', ');
    notes.push(
      `field "${field}" (${ats.length} ${ats.length === 1 ? 'entry' : 'entries'}: ${shown}) has no v2 counterpart: not carried over`,
    );
  }
  return notes;
}

function noteOppositeTypes(kept: readonly Candidate[]): string[] {
  const byText = new Map<string, Candidate>();
  const notes: string[] = [];
  for (const candidate of kept) {
    const text = normaliseText(candidate.text);
    const other = byText.get(text);
    if (other && other.type !== candidate.type)
      notes.push(
        `${other.at} (${other.type}) and ${candidate.at} (${candidate.type}) have the same description but opposite types: both kept`,
      );
    else if (!other) byText.set(text, candidate);
  }
  return notes;
}

function noteServices(services: readonly ServicePaths[]): string[] {
  const notes = services
    .filter((service) => service.prefixes.length === 0)
    .map((service) => `${service.at} mentions no repository path: no techValidation entry for it`);
  const keysByName = new Map<string, string[]>();
  for (const service of services)
    keysByName.set(service.service, [...(keysByName.get(service.service) ?? []), service.key]);
  for (const [name, keys] of keysByName)
    if (keys.length > 1)
      notes.push(
        `service_insights keys ${keys.join(', ')} all map to "${name}": their paths were combined`,
      );
  return notes;
}
