/**
 * "Did you mean …?" for unknown keys: a strict object refuses a key it does not know, and
 * the person who wrote `gatez` should read `gatez: unknown key — did you mean gates?`. Zod's
 * issue names the unknown keys but not the known ones, so they are read from the schema at
 * the path.
 */
import type { z } from 'zod';

/** The smallest number of one-character edits that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known key closest to `key`, when it is close enough to be a typo (at most a third of
 * the longer name changed, and never more than 3 edits); case is ignored.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  const allowed = Math.min(3, Math.ceil(Math.max(key.length, best.name.length) / 3));
  return best.distance <= allowed ? best.name : undefined;
}

interface Definition {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

const definitionOf = (schema: z.ZodType): Definition =>
  (schema as unknown as { _zod: { def: Definition } })._zod.def;

/** The object schemas a value at `path` may be checked by (several under a union). */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): Definition[] {
  const def = definitionOf(schema);
  const wrapped = def.innerType ?? (def.type === 'lazy' ? def.getter?.() : undefined);
  if (wrapped) return objectsAt(wrapped, path);
  if (def.type === 'pipe') return [def.in, def.out].flatMap((s) => (s ? objectsAt(s, path) : []));
  if (def.type === 'union') return (def.options ?? []).flatMap((s) => objectsAt(s, path));
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'object') {
    const child = def.shape?.[String(head)];
    return child ? objectsAt(child, rest) : [];
  }
  const items = def.element ?? def.valueType;
  return items ? objectsAt(items, rest) : [];
}

/** The keys the object at `path` of `schema` knows. */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((def) => Object.keys(def.shape ?? {})))];
}
