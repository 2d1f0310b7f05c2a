/**
 * Every v1 `service_insights` entry, whatever its shape, is carried verbatim into the set's
 * `legacy.service_insights` (the evaluator reads only the paths, so the narrative would
 * otherwise be lost); the repository paths it mentions also become
 * `techValidation.validRepoPaths` (`tech-paths.ts`). An entry that holds nothing (`null`,
 * `""`, `[]`, `{}`) is skipped, saying so.
 */
import type { PlacedEntry, SkippedEntry } from './report.js';
import { describeValue, emptyValue } from './shapes.js';
import type { ServicePaths } from './tech-paths.js';

export interface PlacedInsights {
  readonly placed: PlacedEntry[];
  readonly skipped: SkippedEntry[];
  /** Key → its v1 value, for every insight carried. */
  readonly carried: Record<string, unknown>;
}

/**
 * Accounts for each insight: `services` are the insights' paths, one per key in input order
 * (`repoPathsFromServiceInsights(insights).services`).
 *
 * @example
 * placeServiceInsights({ tack: 'see service/oauth/' }, tech.services).placed[0]?.to;
 * // → ['legacy.service_insights.tack', 'techValidation.validRepoPaths.tack']
 */
export function placeServiceInsights(
  insights: Record<string, unknown>,
  services: readonly ServicePaths[],
): PlacedInsights {
  const placed: PlacedEntry[] = [];
  const skipped: SkippedEntry[] = [];
  const carried: [string, unknown][] = [];
  Object.entries(insights).forEach(([key, value], index) => {
    const ref = { at: `service_insights.${key}`, source: 'service_insight' as const, index };
    const empty = emptyValue(value);
    if (empty !== undefined) {
      skipped.push({ ...ref, reason: `${empty}: holds nothing to migrate` });
      return;
    }
    const service = services[index];
    const prefixes = service?.prefixes ?? [];
    carried.push([key, value]);
    placed.push({
      ...ref,
      to: [
        `legacy.service_insights.${key}`,
        ...(service && prefixes.length > 0
          ? [`techValidation.validRepoPaths.${service.service}`]
          : []),
      ],
      how:
        `${describeValue(value)}, carried verbatim; ` +
        (prefixes.length > 0
          ? `its paths give ${prefixes.join(', ')}`
          : 'it mentions no repository path'),
      carried: { from: 'service_insights', key },
    });
  });
  // fromEntries, not assignment: a service called `__proto__` stays an ordinary key.
  return { placed, skipped, carried: Object.fromEntries(carried) };
}
