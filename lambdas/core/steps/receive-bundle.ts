/**
 * Receiving a shared learning bundle (a DSSE envelope): verified before it is read, then
 * imported whole with its provenance, or quarantined whole with why. Used by
 * `ralph share import` and the deployed stack's bundle-received handler alike.
 *
 * Order matters: the envelope's shape, payload type and signatures are checked before the
 * payload is parsed as a bundle, so nothing an untrusted party wrote reaches the bundle
 * parser; a quarantined bundle writes nothing to the registry.
 */
import { InvalidInputError } from '../errors.js';
import { parseBundle, type PatternBundle } from '../learning/bundle.js';
import { planImport } from '../learning/import-plan.js';
import { ReceiveReportSchema, type ReceiveReport } from '../schemas/sharing.js';
import { sha256Hex } from '../sharing/digest.js';
import { openEnvelope, type Refusal } from '../sharing/envelope.js';
import type { LearningStore } from '../../learning-ports.js';
import type { Clock } from '../../ports.js';
import type { Quarantine, SignatureCheck, TrustStore } from '../../sharing-ports.js';
import { verifyEnvelope } from './verify-envelope.js';

export interface ReceiveBundleDeps {
  learning: LearningStore;
  trust: TrustStore;
  quarantine: Quarantine;
  check: SignatureCheck;
  clock: Clock;
}

/**
 * @example
 * const report = await receiveBundle(deps, await readFile(file), file);
 * // { digest, origin: file, status: 'imported', keyId, added: 3, merged: 0, skipped: 0 }
 */
export async function receiveBundle(
  deps: ReceiveBundleDeps,
  envelopeBytes: Uint8Array,
  origin: string,
): Promise<ReceiveReport> {
  const digest = await sha256Hex(envelopeBytes);
  const refused = (refusal: Refusal) =>
    quarantined(deps, { digest, origin }, refusal, envelopeBytes);
  const opened = openEnvelope(envelopeBytes);
  if (!opened.ok) return refused(opened);
  const verified = await verifyEnvelope(deps, opened);
  if (!verified.ok) return refused(verified);
  const read = readBundle(opened.payload);
  if (!read.ok) return refused(read);
  const { bundle } = read;
  const { key } = verified;
  const scopes = [...new Set(bundle.patterns.map((pattern) => pattern.scope))];
  const existing = (await Promise.all(scopes.map((s) => deps.learning.listPatterns(s)))).flat();
  const plan = planImport(existing, bundle, {
    now: deps.clock.now().toISOString(),
    bundleDigest: `sha256:${digest}`,
    signedBy: { keyId: key.keyId, ...(key.account === undefined ? {} : { account: key.account }) },
  });
  for (const pattern of plan.added) await deps.learning.savePattern(pattern, undefined);
  for (const { pattern, expectedVersion } of plan.merged)
    await deps.learning.savePattern(pattern, expectedVersion);
  const rules = bundle.rules?.length ?? 0;
  return ReceiveReportSchema.parse({
    digest,
    origin,
    status: plan.added.length + plan.merged.length === 0 ? 'already_present' : 'imported',
    keyId: key.keyId,
    ...(rules > 0
      ? { detail: `${rules} project rules not imported: rules stay with their project` }
      : {}),
    added: plan.added.length,
    merged: plan.merged.length,
    skipped: plan.skipped.length,
  });
}

/** The payload read as a bundle, whole: only once its signature holds. */
function readBundle(payload: Uint8Array): { ok: true; bundle: PatternBundle } | Refusal {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(payload);
    return { ok: true, bundle: parseBundle(text, 'the signed payload') };
  } catch (error) {
    if (!(error instanceof InvalidInputError) && !(error instanceof TypeError)) throw error;
    return { ok: false, reason: 'malformed', detail: error.message.replace(/\n\s*/g, ' ') };
  }
}

async function quarantined(
  deps: ReceiveBundleDeps,
  where: { digest: string; origin: string },
  refusal: Refusal,
  envelopeBytes: Uint8Array,
): Promise<ReceiveReport> {
  const { reason, detail } = refusal;
  await deps.quarantine.put(
    { ...where, reason, detail, at: deps.clock.now().toISOString() },
    envelopeBytes,
  );
  return ReceiveReportSchema.parse({ ...where, status: 'quarantined', reason, detail });
}
