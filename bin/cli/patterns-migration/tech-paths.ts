/**
 * Technical-path rules from v1 `service_insights`: for each service, the top-level
 * directories its insights mention, which become `techValidation.validRepoPaths`.
 *
 * Insights are narrative ("OAuth callbacks live in service/oauth/callback.ts"), so a mention
 * is an example, not a list of every valid path: each mentioned path is generalised to its
 * top-level directory (`service/`), the level the design document's `valid_repo_paths` uses.
 */

export interface ServicePaths {
  /** The insight's key as written in the v1 file. */
  readonly key: string;
  /** The key lower-cased and trimmed: the `validRepoPaths` key. */
  readonly service: string;
  /** Where it came from, zod-path style: `service_insights.tack`. */
  readonly at: string;
  /** Every path mentioned, normalised, in order of first mention. */
  readonly paths: readonly string[];
  /** The distinct top-level directories of `paths`, in order of first mention. */
  readonly prefixes: readonly string[];
}

export interface RepoPathRules {
  /** Service → path prefixes; services whose insights mention no path are left out. */
  readonly validRepoPaths: Record<string, string[]>;
  /** One entry per insight, in input order, including those that mention no path. */
  readonly services: readonly ServicePaths[];
}

/** Characters that end a token in prose (quotes, brackets, separators). */
const TOKEN_SEPARATORS = /[\s,;()[\]{}<>"'`|]+/;
const PATH_SHAPE = /^[A-Za-z0-9_.@-]+(?:\/[A-Za-z0-9_.@-]+)*\/?$/;
const FILE_EXTENSION = /^[^.].*\.[A-Za-z0-9]{1,6}$/;
const DOMAIN = /\.(?:com|org|net|io|dev|app|co|ai)$/i;

/**
 * The repository paths mentioned in `text`, normalised (no leading `./`, no trailing glob or
 * sentence punctuation), deduplicated, in order of first mention. A token counts as a path
 * when it has a `/`, is relative (no leading `/`, no URL, no `../`), and either ends in `/`
 * (`packages/`), has a file extension (`service/oauth.ts`), or has three or more segments not
 * all capitalised (`apps/web/src`, but not `OAuth/SSO/SAML`). `tack/zuck` and `and/or` are
 * not paths.
 *
 * @example
 * extractPathMentions('OAuth callbacks live in service/oauth/callback.ts and client/.');
 * // → ['service/oauth/callback.ts', 'client/']
 */
export function extractPathMentions(text: string): string[] {
  const found: string[] = [];
  for (const raw of text.split(TOKEN_SEPARATORS)) {
    const path = normalisePathToken(raw);
    if (path !== undefined && !found.includes(path)) found.push(path);
  }
  return found;
}

function normalisePathToken(raw: string): string | undefined {
  const token = raw
    .replace(/[.:!?]+$/, '')
    .replace(/\*+$/, '')
    .replace(/^(?:\.\/)+/, '');
  if (!token.includes('/') || !PATH_SHAPE.test(token)) return undefined;
  const segments = token.split('/').filter((segment) => segment !== '');
  const first = segments[0];
  if (first === undefined || first === '.' || first.startsWith('@')) return undefined;
  if (!/[A-Za-z]/.test(first) || DOMAIN.test(first)) return undefined;
  if (segments.some((segment) => segment === '..')) return undefined;
  const last = segments[segments.length - 1] ?? '';
  const isDirectory = token.endsWith('/');
  const hasExtension = segments.length >= 2 && FILE_EXTENSION.test(last);
  const deep = segments.length >= 3 && !segments.every((segment) => /^[A-Z]/.test(segment));
  return isDirectory || hasExtension || deep ? token : undefined;
}

/** `service/oauth/callback.ts` → `service/`. */
export function pathPrefix(path: string): string {
  return `${path.split('/')[0] ?? path}/`;
}

/** Every string in a JSON value, object keys included, depth first in document order. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsIn(inner)]);
  return [];
}

/**
 * Maps each service of a v1 `service_insights` object to the top-level directories its
 * insight mentions (every string inside it, at any depth, is read). Keys are lower-cased;
 * two keys that differ only in case share one entry of `validRepoPaths`.
 *
 * @example
 * repoPathsFromServiceInsights({ tack: 'Pinterest; see service/oauth/ and client/src/App.tsx' })
 *   .validRepoPaths;
 * // → { tack: ['service/', 'client/'] }
 */
export function repoPathsFromServiceInsights(insights: Record<string, unknown>): RepoPathRules {
  const byService = new Map<string, string[]>();
  const services: ServicePaths[] = [];
  for (const [key, value] of Object.entries(insights)) {
    const paths: string[] = [];
    for (const text of stringsIn(value))
      for (const path of extractPathMentions(text)) if (!paths.includes(path)) paths.push(path);
    const prefixes = [...new Set(paths.map(pathPrefix))];
    const service = key.trim().toLowerCase();
    services.push({ key, service, at: `service_insights.${key}`, paths, prefixes });
    if (prefixes.length === 0) continue;
    const known = byService.get(service) ?? [];
    byService.set(service, [...known, ...prefixes.filter((prefix) => !known.includes(prefix))]);
  }
  // fromEntries, not assignment: a service called `__proto__` stays an ordinary key.
  return { validRepoPaths: Object.fromEntries(byService), services };
}
