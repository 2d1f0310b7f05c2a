/**
 * Every Lambda function of the stack bundled as CDK bundles it
 * (bench/bundles/function-bundle.ts), each into `<dir>/<name>/index.mjs`, with the size it
 * must stay under.
 */
import { join } from 'node:path';
import { LOOP_HANDLERS } from '../../lib/loop-steps.js';
import { bundleFunction, type FunctionBundle } from '../bundles/function-bundle.js';

/** The API functions' entry files in lambdas/handlers/ (api-environment.ts is their helper). */
export const API_FUNCTIONS = [
  'api-start',
  'api-read',
  'api-artefact',
  'api-control',
  'api-openapi',
] as const;

/** The run loop's functions (lib/loop-steps.ts) and the execution watch's. */
export const LOOP_FUNCTIONS = [...Object.values(LOOP_HANDLERS), 'execution-ended'] as const;

/**
 * What a bundle may weigh, 1 MB read strictly as 10^6 bytes: an API function's `index.mjs`
 * itself (the Run API issue), any function's zipped (the hardening issue; the zip holds
 * the bundle and the templates, gzip level 9 stands for it).
 */
export interface BundleLimit {
  bytes: number;
  of: 'index.mjs' | 'zipped';
}

export type Bundle = FunctionBundle & { limit: BundleLimit };

const API_LIMIT: BundleLimit = { bytes: 1_000_000, of: 'index.mjs' };
const LOOP_LIMIT: BundleLimit = { bytes: 1_000_000, of: 'zipped' };

/** Bundles every function into `dir`, one after the other. */
export async function bundleFunctions(dir: string): Promise<Bundle[]> {
  const bundles: Bundle[] = [];
  for (const name of API_FUNCTIONS)
    bundles.push({ ...(await bundleFunction(name, join(dir, name))), limit: API_LIMIT });
  for (const name of LOOP_FUNCTIONS)
    bundles.push({ ...(await bundleFunction(name, join(dir, name))), limit: LOOP_LIMIT });
  return bundles;
}

/** Whether a bundle is within its limit. */
export function withinLimit(bundle: Pick<Bundle, 'bytes' | 'gzipBytes' | 'limit'>): boolean {
  const size = bundle.limit.of === 'zipped' ? bundle.gzipBytes : bundle.bytes;
  return size <= bundle.limit.bytes;
}
