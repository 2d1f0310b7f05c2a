/**
 * Receiving a shared bundle (core/steps/receive-bundle.ts) into the registry on the
 * emulators, with the local key files, trust store and quarantine: a bundle signed by a
 * trusted key is imported with its provenance; every other one is quarantined whole and
 * writes nothing, its signature checked before its payload is read.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileQuarantine } from '../../lambdas/adapters/sharing/file-quarantine.js';
import { FileTrustStore } from '../../lambdas/adapters/sharing/file-trust-store.js';
import { keyFileSigner } from '../../lambdas/adapters/sharing/key-file-signer.js';
import { nodeSignatureCheck } from '../../lambdas/adapters/sharing/node-signature-check.js';
import { bundleOf } from '../../lambdas/core/learning/bundle.js';
import type { RegistryScope } from '../../lambdas/core/schemas/learning.js';
import type { DsseEnvelope } from '../../lambdas/core/schemas/sharing.js';
import { envelopeOf, signedBytesOf } from '../../lambdas/core/sharing/envelope.js';
import { receiveBundle, type ReceiveBundleDeps } from '../../lambdas/core/steps/receive-bundle.js';
import { sealBundle } from '../../lambdas/core/steps/seal-bundle.js';
import type { LearningStore } from '../../lambdas/learning-ports.js';
import type { BundleSigner } from '../../lambdas/sharing-ports.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeRegistryPattern } from '../support/learning-records.js';

const NOW = new Date('2026-05-01T09:00:00.000Z');
const ACCOUNT = '111122223333';

let learning: LearningStore;
useEmulatorStores((stores) => ({ learning } = stores));

let dir = '';
let trusted: BundleSigner;
let stranger: BundleSigner;
let deps: ReceiveBundleDeps;
let quarantine: FileQuarantine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ralph-receive-'));
  trusted = (await keyFileSigner(join(dir, 'a.pem'), { create: true })).signer;
  stranger = (await keyFileSigner(join(dir, 'other.pem'), { create: true })).signer;
  const trust = new FileTrustStore(join(dir, 'trusted-keys.json'));
  await trust.add({
    keyId: trusted.keyId,
    publicKey: Buffer.from(await trusted.publicKey()).toString('base64'),
    account: ACCOUNT,
    addedAt: NOW.toISOString(),
  });
  quarantine = new FileQuarantine(join(dir, 'quarantine'));
  deps = { learning, trust, quarantine, check: nodeSignatureCheck, clock: { now: () => NOW } };
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A bundle of two patterns of `scope` (each test its own scope: the table is shared). */
function bundleFor(scope: RegistryScope) {
  return bundleOf({
    exportedAt: '2026-04-30T12:00:00Z',
    scopes: [scope],
    patterns: [
      makeRegistryPattern({ scope }),
      makeRegistryPattern({ scope, patternId: 'pat-success-small-steps', type: 'success' }),
    ],
  });
}

const bytesOf = (envelope: unknown) => new TextEncoder().encode(JSON.stringify(envelope));
const envelopeIn = (bytes: Uint8Array) =>
  JSON.parse(new TextDecoder().decode(bytes)) as DsseEnvelope;

/** `bytes` with one character of the base64 payload swapped for another base64 character. */
function oneByteChanged(bytes: Uint8Array): Uint8Array {
  const changed = new Uint8Array(bytes);
  const at = new TextDecoder().decode(bytes).indexOf('"payload": "') + 40;
  changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
  return changed;
}

describe('Function: receiveBundle', () => {
  it("imports a trusted key's bundle with its provenance, and the same bundle again as already present", async () => {
    // Prepare
    const sealed = await sealBundle(trusted, bundleFor('project:imported'));

    // Act
    const report = await receiveBundle(deps, sealed.bytes, 'a.dsse.json');
    const again = await receiveBundle(deps, sealed.bytes, 'a.dsse.json');

    // Assess
    expect(report).toEqual({
      digest: sealed.digest,
      origin: 'a.dsse.json',
      status: 'imported',
      keyId: trusted.keyId,
      added: 2,
      merged: 0,
      skipped: 0,
    });
    expect(again).toMatchObject({ status: 'already_present', added: 0, skipped: 2 });
    const stored = await learning.listPatterns('project:imported');
    expect(stored.map((p) => p.patternId)).toEqual([
      'pat-error-null-check-001',
      'pat-success-small-steps',
    ]);
    for (const pattern of stored)
      expect(pattern.sources).toEqual([
        expect.objectContaining({
          bundle: `sha256:${sealed.digest}`,
          shared: { bundle: `sha256:${sealed.digest}`, keyId: trusted.keyId, account: ACCOUNT },
        }),
      ]);
  });

  it.each([
    [
      'with one byte changed',
      'bad_signature',
      async (scope: RegistryScope) =>
        oneByteChanged((await sealBundle(trusted, bundleFor(scope))).bytes),
    ],
    [
      'unsigned',
      'unsigned',
      async (scope: RegistryScope) =>
        bytesOf({
          ...envelopeIn((await sealBundle(trusted, bundleFor(scope))).bytes),
          signatures: [],
        }),
    ],
    [
      'signed by a key not trusted',
      'untrusted_key',
      async (scope: RegistryScope) => (await sealBundle(stranger, bundleFor(scope))).bytes,
    ],
    [
      'of another payload type',
      'wrong_payload_type',
      async (scope: RegistryScope) =>
        bytesOf({
          ...envelopeIn((await sealBundle(trusted, bundleFor(scope))).bytes),
          payloadType: 'application/json',
        }),
    ],
    ['that is no envelope', 'malformed', async (scope: RegistryScope) => bytesOf(bundleFor(scope))],
  ] as const)('quarantines a bundle %s, whole, writing nothing', async (name, reason, make) => {
    // Prepare
    const scope: RegistryScope = `project:refused-${reason.replaceAll('_', '-')}`;
    const bytes = await make(scope);

    // Act
    const report = await receiveBundle(deps, bytes, `${name}.dsse.json`);

    // Assess
    expect(report).toMatchObject({ status: 'quarantined', reason, added: 0, merged: 0 });
    expect(await learning.listPatterns(scope)).toEqual([]);
    expect(await quarantine.list()).toContainEqual({
      digest: report.digest,
      origin: `${name}.dsse.json`,
      reason,
      detail: report.detail,
      at: NOW.toISOString(),
    });
    expect(new Uint8Array(await readFile(quarantine.envelopePath(report.digest)))).toEqual(bytes);
  });

  it('checks the signature before reading the payload: a payload no bundle could be, signed wrongly, is a bad signature', async () => {
    // Prepare
    const payload = new TextEncoder().encode('{"format":"not a bundle","patterns":7}');
    const signature = await trusted.sign(signedBytesOf(new TextEncoder().encode('other')));
    const bytes = bytesOf(envelopeOf(payload, { keyId: trusted.keyId, signature }));

    // Act
    const report = await receiveBundle(deps, bytes, 'wrong.dsse.json');

    // Assess
    expect(report).toMatchObject({ status: 'quarantined', reason: 'bad_signature' });
    expect(report.detail).toContain(`the signature by ${trusted.keyId} does not hold`);
  });

  it('quarantines a correctly signed payload that is no bundle as malformed, naming the path', async () => {
    // Prepare
    const payload = new TextEncoder().encode('{"format":"ralph-pattern-bundle","version":1}');
    const signature = await trusted.sign(signedBytesOf(payload));
    const bytes = bytesOf(envelopeOf(payload, { keyId: trusted.keyId, signature }));

    // Act
    const report = await receiveBundle(deps, bytes, 'empty.dsse.json');

    // Assess
    expect(report).toMatchObject({ status: 'quarantined', reason: 'malformed' });
    expect(report.detail).toContain('the signed payload is invalid: exportedAt');
  });
});
