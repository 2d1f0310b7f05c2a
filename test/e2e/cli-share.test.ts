/**
 * `ralph share` between two data directories standing in for two accounts: A's registry
 * published as a signed bundle, A's public key trusted in B, the bundle imported into B
 * with its provenance; a bundle with one byte changed, one unsigned and one signed by a key
 * B does not trust are each quarantined with nothing imported, and listed.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOf } from '../../lambdas/core/learning/bundle.js';
import type { RegistryPattern } from '../../lambdas/core/schemas/learning.js';
import type { DsseEnvelope, ReceiveReport } from '../../lambdas/core/schemas/sharing.js';
import { openLocalStack } from '../../local/local-stack.js';
import { jsonOf, useCliScratch, type CliScratch } from '../support/cli.js';
import { makeRegistryPattern } from '../support/learning-records.js';

const publisher = useCliScratch('ralph-share-a-');
const consumer = useCliScratch('ralph-share-b-');
const ACCOUNT_A = '111111111111';

const PATTERNS = [
  makeRegistryPattern(),
  makeRegistryPattern({ patternId: 'pat-success-small-steps', type: 'success', issue: undefined }),
];

interface Published {
  file: string;
  digest: string;
  keyId: string;
  publicKeyFile: string;
  keyCreated: boolean;
}

let published: Published;

async function registryOf(scratch: CliScratch): Promise<RegistryPattern[]> {
  const list = await scratch.ralph('patterns', 'list', '--json');
  expect(list.exitCode, list.stderr).toBe(0);
  return jsonOf<{ patterns: RegistryPattern[] }>(list).patterns;
}

/** Writes `bytes` beside the published bundle as `name`, and returns its path. */
async function variant(name: string, bytes: Uint8Array | string): Promise<string> {
  const file = join(publisher.dataDir, name);
  await writeFile(file, bytes);
  return file;
}

beforeAll(async () => {
  // A's registry gets its patterns the way a person's would: a pattern bundle imported.
  const fixture = join(publisher.dataDir, 'fixture-patterns.json');
  await writeFile(
    fixture,
    JSON.stringify(
      bundleOf({ exportedAt: '2026-04-01T10:00:00Z', scopes: ['org'], patterns: PATTERNS }),
    ),
  );
  const seeded = await publisher.ralph('patterns', 'import', '--input', fixture);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
});

describe('ralph share', () => {
  it("publishes A's registry as a signed bundle, making A's signing key on first use (0600)", async () => {
    const first = await publisher.ralph('share', 'publish');
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^made a signing key: .*signing-key\.pem \(private/m);
    expect(first.stdout).toContain('published 2 patterns of org');
    expect(first.stdout).toMatch(/ {2}key id {6}local:[0-9a-f]{64}\n/);

    published = jsonOf<Published>(await publisher.ralph('share', 'publish', '--json'));
    expect(published.keyCreated).toBe(false);
    expect(published.digest).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(join(publisher.dataDir, 'sharing', 'signing-key.pem'))).mode & 0o777).toBe(
      0o600,
    );
    const envelope = JSON.parse(await readFile(published.file, 'utf8')) as DsseEnvelope;
    expect(envelope.payloadType).toBe('application/vnd.ralph-cloud.learning-bundle+json');
    expect(envelope.signatures).toEqual([{ keyid: published.keyId, sig: expect.any(String) }]);
  });

  it("trusts A's public key in B; an ARN is refused locally (exit 2)", async () => {
    const arn = await consumer.ralph(
      'share',
      'trust',
      'arn:aws:kms:eu-west-1:111111111111:key/abc',
    );
    expect(arn.exitCode).toBe(2);
    expect(arn.stderr).toContain('a KMS key ARN is trusted in the deployed stack');
    const bad = await consumer.ralph('share', 'trust', published.file);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('not a public key');

    const trust = await consumer.ralph(
      'share',
      'trust',
      published.publicKeyFile,
      '--account',
      ACCOUNT_A,
    );
    expect(trust.exitCode, trust.stderr).toBe(0);
    expect(trust.stdout).toBe(
      `trusted ${published.keyId} (account ${ACCOUNT_A}) from ${published.publicKeyFile}\n`,
    );
    expect((await consumer.ralph('share', 'trust', published.publicKeyFile)).stdout).toContain(
      'is trusted already',
    );
  });

  it('quarantines a bundle with one byte changed, one unsigned and one signed by a key B does not trust: nothing imported', async () => {
    // Prepare
    const bytes = await readFile(published.file);
    const changed = Buffer.from(bytes);
    const at = bytes.indexOf('"payload": "') + 60;
    changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
    const envelope = JSON.parse(bytes.toString('utf8')) as DsseEnvelope;
    const otherKey = await variant(
      'other-key.pem',
      generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
        type: 'pkcs8',
        format: 'pem',
      }),
    );
    const byOther = join(publisher.dataDir, 'by-other.dsse.json');
    const signedByOther = await publisher.ralph(
      'share',
      'publish',
      '--key',
      otherKey,
      '--output',
      byOther,
    );
    expect(signedByOther.exitCode, signedByOther.stderr).toBe(0);
    const refused = [
      [await variant('changed.dsse.json', changed), 'bad_signature'],
      [
        await variant('unsigned.dsse.json', JSON.stringify({ ...envelope, signatures: [] })),
        'unsigned',
      ],
      [byOther, 'untrusted_key'],
    ] as const;

    for (const [file, reason] of refused) {
      // Act
      const text = await consumer.ralph('share', 'import', file);
      const json = await consumer.ralph('share', 'import', file, '--json');

      // Assess
      expect(text.exitCode, text.stdout).toBe(4);
      expect(text.stderr).toContain(`quarantined ${file} (${reason}): `);
      expect(text.stderr).toContain('nothing imported, the bundle is kept whole in');
      expect(jsonOf<ReceiveReport>(json)).toMatchObject({
        status: 'quarantined',
        reason,
        added: 0,
      });
      expect(await registryOf(consumer)).toEqual([]);
    }
    const list = await consumer.ralph('share', 'list', '--json');
    const { quarantined } = jsonOf<{ quarantined: { origin: string; reason: string }[] }>(list);
    expect(quarantined.map((q) => [q.origin, q.reason])).toEqual(
      expect.arrayContaining(refused.map(([file, reason]) => [file, reason])),
    );
    const kept = quarantined.find((q) => q.origin === refused[0][0]) as unknown as {
      digest: string;
    };
    expect(
      await readFile(join(consumer.dataDir, 'sharing', 'quarantine', `${kept.digest}.dsse.json`)),
    ).toEqual(changed);
  });

  it("imports A's bundle into B: A's patterns, each source with its provenance (account, digest, key id)", async () => {
    const imported = await consumer.ralph('share', 'import', published.file);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      `imported: ${published.file} (${published.digest}) signed by ${published.keyId} (account ${ACCOUNT_A}): patterns 2 added, 0 merged, 0 skipped`,
    );
    const patterns = await registryOf(consumer);
    expect(patterns.map((p) => p.patternId).sort()).toEqual(
      PATTERNS.map((p) => p.patternId).sort(),
    );
    for (const pattern of patterns)
      for (const source of pattern.sources)
        expect(source.shared).toEqual({
          bundle: `sha256:${published.digest}`,
          keyId: published.keyId,
          account: ACCOUNT_A,
        });
    const show = await consumer.ralph('patterns', 'show', 'pat-success-small-steps');
    expect(show.stdout).toContain(
      `shared in sha256:${published.digest} signed by ${published.keyId} (account ${ACCOUNT_A})`,
    );
    const again = await consumer.ralph('share', 'import', published.file);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/^already present: .* patterns 0 added, 0 merged, 2 skipped/);
  });

  it('lists what each side published, trusts, imported and quarantined', async () => {
    const a = await publisher.ralph('share', 'list');
    expect(a.exitCode, a.stderr).toBe(0);
    expect(a.stdout).toMatch(/^Published \(3\):/m);
    expect(a.stdout).toContain('Trusted keys: none');
    const b = await consumer.ralph('share', 'list');
    expect(b.exitCode, b.stderr).toBe(0);
    expect(b.stdout).toContain('Published: none');
    expect(b.stdout).toMatch(/^Trusted keys \(1\):/m);
    expect(b.stdout).toMatch(/^Imported \(1\):/m);
    expect(b.stdout).toMatch(
      new RegExp(
        `${published.digest.slice(0, 16)}…\\s*│\\s*local:${published.keyId.slice(6, 22)}…\\s*│\\s*${ACCOUNT_A}\\s*│\\s*2`,
      ),
    );
    expect(b.stdout).toMatch(/^Quarantined \(3\):/m);
    for (const reason of ['bad_signature', 'unsigned', 'untrusted_key'])
      expect(b.stdout).toContain(reason);
  });

  it("imports from the local stack's bucket, and refuses another bucket (exit 2)", async () => {
    const stack = await openLocalStack({ dataDir: consumer.dataDir });
    const bucket = stack.endpoints.bucketName;
    try {
      await stack.deps.artefacts.put('shared/a.dsse.json', await readFile(published.file));
    } finally {
      await stack.close();
    }
    const local = await consumer.ralph(
      'share',
      'import',
      `s3://${bucket}/shared/a.dsse.json`,
      '--json',
    );
    expect(local.exitCode, local.stderr).toBe(0);
    expect(jsonOf<ReceiveReport>(local)).toMatchObject({
      digest: published.digest,
      status: 'already_present',
    });
    const other = await consumer.ralph('share', 'import', 's3://someone-elses-bucket/a.dsse.json');
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain(`the local stack reads only its own bucket (${bucket})`);
  });
});
