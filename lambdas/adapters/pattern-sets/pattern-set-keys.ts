/**
 * Where a project's pattern set lives on the single table (docs/data-model.md, "Pattern
 * sets"): the key builders and the checks of what goes into a key.
 */
import { artefactKeys } from '../../core/shared/artefact-keys.js';
import { InvalidInputError } from '../../core/errors.js';
import { TABLE_KEYS } from '../table-design.js';
import type { Item } from '../dynamodb/stored-items.js';

/** Version numbers are padded to this width so that sort keys sort numerically. */
const VERSION_DIGITS = 6;
export const MAX_VERSION = 10 ** VERSION_DIGITS - 1;

/**
 * The key builders, exported so that docs/data-model.md, the tests and any repair script
 * name items exactly as the store does.
 */
export const patternSetKeys = {
  projectPk: (projectId: string) => `PROJECT#${projectId}`,
  pointerSk: 'PATTERNS#CURRENT',
  versionPrefix: 'PATTERNS#V#',
  /** `PATTERNS#V#000002` sorts before `PATTERNS#V#000010`. */
  versionSk: (version: number) => {
    checkVersionNumber(version, 'version');
    return `PATTERNS#V#${String(version).padStart(VERSION_DIGITS, '0')}`;
  },
} as const;

/** The table key of a project's item with sort key `sortKey`. */
export function projectKey(projectId: string, sortKey: string): Item {
  return {
    [TABLE_KEYS.partitionKey]: patternSetKeys.projectPk(projectId),
    [TABLE_KEYS.sortKey]: sortKey,
  };
}

/** Names a version in errors: `version 3 of the pattern set of project acme`. */
export function describeVersion(projectId: string, version: number): string {
  return `version ${version} of the pattern set of project ${projectId}`;
}

/** The table key and the S3 key both carry the project id; artefactKeys refuses an unsafe one. */
export function checkProjectId(projectId: string): void {
  artefactKeys.patternSet(projectId, 1);
}

export function checkVersionNumber(version: number, what: string): void {
  if (!Number.isSafeInteger(version) || version < 1 || version > MAX_VERSION)
    throw new InvalidInputError('pattern-set version', [
      `${what}: ${version} is outside 1..${MAX_VERSION} (the sort key holds ${VERSION_DIGITS} digits)`,
    ]);
}
