/**
 * Publishing the registry from a deployed stack: the patterns of the given scopes exported as
 * a bundle (the export `ralph share publish` makes: `bundleOf`), sealed with the stack's key,
 * written once under the organisation-readable bundle prefix, and announced.
 *
 * Idempotent by content, not by envelope: an ECDSA signature differs each time, so the same
 * registry sealed twice gives two envelopes with two digests. What was published is kept by
 * the SHA-256 of the bundle without `exportedAt` (`sharingKeys.published`), written only
 * once the announcement went out: content published before is skipped, neither sealed nor
 * announced again; a run that stopped before announcing publishes again, and consumers find
 * the second envelope `already_present`.
 */
import { bundleOf, type PatternBundle } from '../learning/bundle.js';
import type { RegistryScope } from '../schemas/learning.js';
import { BundlePublishedDetailSchema, type BundlePublishedDetail } from '../schemas/sharing.js';
import { sharingKeys } from '../shared/sharing-keys.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import { sha256Hex } from '../sharing/digest.js';
import type { LearningStore } from '../../learning-ports.js';
import type { ArtefactStore, Clock } from '../../ports.js';
import type { BundleAnnouncer, BundleSigner } from '../../sharing-ports.js';
import { sealBundle } from './seal-bundle.js';

export interface PublishBundleDeps {
  learning: Pick<LearningStore, 'listPatterns'>;
  signer: BundleSigner;
  /** The artefact bucket: bundles under `shared/bundles/`, what was published under `shared/published/`. */
  artefacts: ArtefactStore;
  announcer: BundleAnnouncer;
  clock: Clock;
  /** The bucket's name, as consumers read it (the announcement names it). */
  bucket: string;
}

/** What publishing did: `published` and `unchanged` name the bundle consumers read. */
export type PublishOutcome =
  | { status: 'empty'; scopes: RegistryScope[] }
  | ({ status: 'published' | 'unchanged'; scopes: RegistryScope[]; patterns: number } & Announced);

type Announced = BundlePublishedDetail & { contentDigest: string };

/**
 * @example
 * await publishBundle(deps, ['org']);
 * // { status: 'published', scopes: ['org'], patterns: 3, bucket, key, digest, keyId, contentDigest }
 */
export async function publishBundle(
  deps: PublishBundleDeps,
  scopes: readonly RegistryScope[],
): Promise<PublishOutcome> {
  const unique = [...new Set(scopes)];
  const patterns = (await Promise.all(unique.map((s) => deps.learning.listPatterns(s)))).flat();
  if (patterns.length === 0) return { status: 'empty', scopes: unique };
  const bundle = bundleOf({ exportedAt: deps.clock.now().toISOString(), scopes: unique, patterns });
  const contentDigest = await contentDigestOf(bundle);
  const record = sharingKeys.published(contentDigest);
  const counts = { scopes: unique, patterns: patterns.length };
  if (await deps.artefacts.exists(record)) {
    const text = await deps.artefacts.getText(record);
    const before = parseOrThrow(BundlePublishedDetailSchema, parseJsonText(text, record), record);
    return { status: 'unchanged', ...counts, ...before, contentDigest };
  }
  const sealed = await sealBundle(deps.signer, bundle);
  const detail: BundlePublishedDetail = {
    bucket: deps.bucket,
    key: sharingKeys.bundle(sealed.digest),
    digest: sealed.digest,
    keyId: sealed.keyId,
  };
  await deps.artefacts.put(detail.key, sealed.bytes, 'application/json');
  await deps.announcer.announce(detail);
  await deps.artefacts.put(record, `${JSON.stringify(detail)}\n`, 'application/json');
  return { status: 'published', ...counts, ...detail, contentDigest };
}

/** The bundle's content: everything but when it was exported. */
function contentDigestOf(bundle: PatternBundle): Promise<string> {
  const { exportedAt: _when, ...content } = bundle;
  return sha256Hex(new TextEncoder().encode(JSON.stringify(content)));
}
