/**
 * How esbuild bundles every function: one place read by `createNodejsFunction` (CDK) and
 * by `npm run bench:api`, which bundles the API functions the same way to report their size
 * and import time. No CDK import here, so the bench can load it cheaply.
 */

/**
 * The project is ESM, but some dependencies are CommonJS and call `require`; esbuild's
 * ESM output has no `require`, so the bundle recreates it.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** esbuild's settings for a function bundle (`index.mjs`, no externals: the SDK ships inside). */
export const BUNDLE_SETTINGS = {
  /** The runtime's Node.js line (FUNCTION_DEFAULTS.runtime). */
  target: 'node22',
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  /**
   * No source maps: they were three to four times the size of each bundle and
   * `--enable-source-maps` reads them at every cold start. Names are kept instead, so a
   * stack trace still says which function threw.
   */
  sourceMap: false,
  keepNames: true,
} as const;

/**
 * The prompt templates, relative to the repository root. The core reads them from
 * `templates/` beside its own module, which in a bundle is the bundle file.
 */
export const PROMPT_TEMPLATES_SOURCE = 'lambdas/core/prompts/templates';
