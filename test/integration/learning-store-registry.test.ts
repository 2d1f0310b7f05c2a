/**
 * DynamoS3LearningStore's pattern registry against the emulators: patterns created and
 * saved on their version per scope, every page listed, a pattern too large for an item kept
 * in the bucket and read back whole, a missing or damaged body named, and archiving: the
 * copy written first and kept, the item deleted on its version.
 */
import { Buffer } from 'node:buffer';
import { DeleteObjectCommand, ListObjectsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { patternKey } from '../../lambdas/adapters/dynamodb/learning-items.js';
import { DynamoS3LearningStore } from '../../lambdas/adapters/dynamodb/learning-store.js';
import { MAX_INLINE_ITEM_BYTES } from '../../lambdas/adapters/dynamodb/pattern-bodies.js';
import {
  InvalidInputError,
  NotFoundError,
  RalphError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import type { RegistryPattern, RegistryScope } from '../../lambdas/core/schemas/learning.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { emulatorDynamoClient, hookRequests } from '../support/dynamo-faults.js';
import {
  ARCHIVED_AT,
  makeRegistryPattern,
  nextId,
  useLearningStores,
  type LearningFixture,
} from '../support/learning-stores.js';

let fx: LearningFixture;
useLearningStores((fixture) => (fx = fixture));

/** A code template of about `bytes` bytes, so that the pattern passes an item's size. */
function largeTemplate(bytes: number, seed: string): RegistryPattern['template'] {
  const line = `export const handler_${seed} = async (event) => { return await process(event); };\n`;
  return { language: 'typescript', code: line.repeat(Math.ceil(bytes / line.length)) };
}

/** The item as stored, keys and all. */
async function rawItem(scope: RegistryScope, patternId: string) {
  const result = await fx.dynamo.send(
    new GetCommand({
      TableName: fx.emulators.tableName,
      Key: patternKey(scope, patternId),
      ConsistentRead: true,
    }),
  );
  return result.Item;
}

/** The keys of the bucket under `prefix`. */
async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await fx.s3.send(
    new ListObjectsCommand({ Bucket: fx.emulators.bucketName, Prefix: prefix }),
  );
  return (listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
}

describe('Class: DynamoS3LearningStore', () => {
  describe('Method: savePattern', () => {
    it('creates a pattern at version 1, saves it on its version, and refuses a stale save', async () => {
      // Prepare
      const pattern = makeRegistryPattern({ patternId: nextId('pat-save'), version: 4 });

      // Act
      const created = await fx.learning.savePattern(pattern, undefined);
      const again = fx.learning.savePattern(pattern, undefined);
      const saved = await fx.learning.savePattern(
        { ...created, uses: 1, successes: 1 },
        created.version,
      );
      const stale = fx.learning.savePattern({ ...created, uses: 2 }, created.version);

      // Assess
      expect(created).toEqual({ ...pattern, version: 1 });
      await expect(again).rejects.toThrow(VersionConflictError);
      expect(saved).toMatchObject({ version: 2, uses: 1 });
      await expect(stale).rejects.toThrow(
        `pattern ${pattern.patternId} of registry org was not saved: expected version 1, but the stored version is 2`,
      );
      expect(await fx.learning.getPattern('org', pattern.patternId)).toEqual(saved);
    });

    it('keeps a project’s registry apart from the organisation’s', async () => {
      // Prepare
      const patternId = nextId('pat-scope');
      const scope = `project:${nextId('acme')}` as const;

      // Act
      await fx.learning.savePattern(makeRegistryPattern({ patternId, scope }), undefined);

      // Assess
      expect(await fx.learning.getPattern(scope, patternId)).toMatchObject({ scope });
      expect(await fx.learning.getPattern('org', patternId)).toBeUndefined();
      expect((await fx.learning.listPatterns(scope)).map((p) => p.patternId)).toEqual([patternId]);
    });

    it('counts a create whose reply was lost (the SDK retried it) as this call’s', async () => {
      // Prepare
      const pattern = makeRegistryPattern({ patternId: nextId('pat-lost') });
      const { lossyStore, sent, close } = fx.storeLosingFirstReply('PutItemCommand');

      // Act
      const created = await lossyStore.savePattern(pattern, undefined);
      close();

      // Assess
      expect(sent()).toBe(2);
      expect(await fx.learning.getPattern('org', pattern.patternId)).toEqual(created);
    });

    it('refuses a malformed pattern with its paths, and writes nothing, its large body neither', async () => {
      // Prepare
      const patternId = nextId('pat-bad');
      const pattern = {
        ...makeRegistryPattern({ patternId, template: largeTemplate(400_000, 'bad') }),
        successRate: 1.5,
        sources: [],
      };

      // Act
      const saved = fx.learning.savePattern(pattern, undefined);

      // Assess
      await expect(saved).rejects.toThrow(InvalidInputError);
      await expect(saved).rejects.toMatchObject({
        issues: [expect.stringMatching(/^successRate: /), expect.stringMatching(/^sources: /)],
      });
      expect(await rawItem('org', patternId)).toBeUndefined();
      expect(await keysUnder(`registry/org/patterns/${patternId}/`)).toEqual([]);
    });
  });

  describe('Method: listPatterns', () => {
    it('lists every pattern of a large registry by id, over several pages', async () => {
      // Prepare: 1,200 patterns of about 1.5 KB, more than one 1 MB query page.
      const scope = `project:${nextId('big')}` as const;
      const ids = Array.from({ length: 1200 }, (_, index) => `p-${String(index).padStart(4, '0')}`);
      const body = 'Retry the request after the token is refreshed. '.repeat(30);
      for (let start = 0; start < ids.length; start += 25)
        await Promise.all(
          ids
            .slice(start, start + 25)
            .map((patternId) =>
              fx.learning.savePattern(makeRegistryPattern({ scope, patternId, body }), undefined),
            ),
        );
      const client = emulatorDynamoClient(fx.emulators);
      const queries = hookRequests(client, 'QueryCommand', async () => undefined);
      const store = new DynamoS3LearningStore({
        client,
        tableName: fx.emulators.tableName,
        artefacts: fx.artefacts,
      });

      // Act
      const patterns = await store.listPatterns(scope);
      client.destroy();

      // Assess
      expect(patterns.map((pattern) => pattern.patternId)).toEqual(ids);
      expect(queries()).toBeGreaterThan(1);
    }, 120_000);

    it('refuses a scope that is neither org nor project:<id>', async () => {
      // Act
      const listed = fx.learning.listPatterns('project:' as RegistryScope);

      // Assess
      await expect(listed).rejects.toThrow(InvalidInputError);
      await expect(listed).rejects.toThrow('registry scope is invalid');
    });
  });

  describe('Large bodies', () => {
    it('keeps a pattern too large for an item in the bucket and reads it back whole', async () => {
      // Prepare
      const patternId = nextId('pat-large');
      const pattern = makeRegistryPattern({
        patternId,
        type: 'template',
        template: largeTemplate(500_000, 'v1'),
      });

      // Act
      const created = await fx.learning.savePattern(pattern, undefined);
      const saved = await fx.learning.savePattern(
        { ...created, template: largeTemplate(500_000, 'v2') },
        created.version,
      );
      const read = await fx.learning.getPattern('org', patternId);
      const listed = await fx.learning.listPatterns('org');

      // Assess
      expect(read).toEqual(saved);
      expect(listed.find((p) => p.patternId === patternId)).toEqual(saved);
      const item = await rawItem('org', patternId);
      expect(item).toMatchObject({ version: 2, title: pattern.title, uses: 0 });
      expect(item).not.toHaveProperty('template');
      expect(item).not.toHaveProperty('body');
      expect(Buffer.byteLength(JSON.stringify(item))).toBeLessThan(MAX_INLINE_ITEM_BYTES);
      const bodyKey = String(item?.['bodyKey']);
      expect(bodyKey).toMatch(
        new RegExp(`^registry/org/patterns/${patternId}/v2-[0-9a-f]{16}\\.json$`),
      );
      expect(JSON.parse(await fx.artefacts.getText(bodyKey))).toEqual(saved);
      expect(await keysUnder(`registry/org/patterns/${patternId}/`)).toHaveLength(2);
    });

    it('saves a large pattern whose item put lost its reply once, its body written once', async () => {
      // Prepare
      const patternId = nextId('pat-large-lost');
      const pattern = makeRegistryPattern({ patternId, template: largeTemplate(450_000, 'lost') });
      const { lossyStore, sent, close } = fx.storeLosingFirstReply('PutItemCommand');

      // Act
      const created = await lossyStore.savePattern(pattern, undefined);
      close();

      // Assess
      expect(sent()).toBe(2);
      expect(await fx.learning.getPattern('org', patternId)).toEqual(created);
      expect(await keysUnder(`registry/org/patterns/${patternId}/`)).toHaveLength(1);
    });

    it('says a missing body is missing, naming its key', async () => {
      // Prepare
      const patternId = nextId('pat-gone');
      const scope = `project:${nextId('broken')}` as const;
      await fx.learning.savePattern(
        makeRegistryPattern({ scope, patternId, template: largeTemplate(350_000, 'gone') }),
        undefined,
      );
      const bodyKey = String((await rawItem(scope, patternId))?.['bodyKey']);
      await fx.s3.send(new DeleteObjectCommand({ Bucket: fx.emulators.bucketName, Key: bodyKey }));

      // Act
      const read = fx.learning.listPatterns(scope);

      // Assess
      await expect(read).rejects.toThrow(RalphError);
      await expect(read).rejects.toThrow(`pattern ${patternId} of registry ${scope}: its body`);
      await expect(read).rejects.toMatchObject({ code: 'CORRUPT_RECORD' });
      await expect(read).rejects.toThrow(
        `its body s3://${fx.emulators.bucketName}/${bodyKey} is missing`,
      );
    });

    it('refuses a body that does not hold the item’s pattern, naming its key', async () => {
      // Prepare: the body is replaced behind the store's back by another pattern's.
      const patternId = nextId('pat-swapped');
      const scope = `project:${nextId('broken')}` as const;
      await fx.learning.savePattern(
        makeRegistryPattern({ scope, patternId, template: largeTemplate(350_000, 'own') }),
        undefined,
      );
      const bodyKey = String((await rawItem(scope, patternId))?.['bodyKey']);
      const other = JSON.stringify(
        makeRegistryPattern({ scope, patternId: 'someone-else', version: 3 }),
      );
      await fx.s3.send(
        new PutObjectCommand({
          Bucket: fx.emulators.bucketName,
          Key: bodyKey,
          Body: other,
          ContentLength: Buffer.byteLength(other),
        }),
      );

      // Act
      const read = fx.learning.getPattern(scope, patternId);

      // Assess
      await expect(read).rejects.toMatchObject({ code: 'CORRUPT_RECORD' });
      await expect(read).rejects.toThrow(bodyKey);
      await expect(read).rejects.toThrow(/patternId: someone-else, but the item says/);
      await expect(read).rejects.toThrow(/version: 3, but the item says 1/);
    });
  });

  describe('Method: archivePattern', () => {
    it('writes the archived copy, then takes the pattern out of the registry', async () => {
      // Prepare
      const patternId = nextId('pat-archive');
      const created = await fx.learning.savePattern(makeRegistryPattern({ patternId }), undefined);

      // Act
      const { key } = await fx.learning.archivePattern(created, 'success rate 0.4 after 5 uses');

      // Assess
      expect(key).toBe(artefactKeys.registryArchive('org', patternId, ARCHIVED_AT.toISOString()));
      expect(key).toBe(`registry/archive/org/${patternId}/20260401083000123.json`);
      expect(JSON.parse(await fx.artefacts.getText(key))).toEqual({
        pattern: created,
        reason: 'success rate 0.4 after 5 uses',
        archivedAt: ARCHIVED_AT.toISOString(),
      });
      expect(await fx.learning.getPattern('org', patternId)).toBeUndefined();
      const listed = await fx.learning.listPatterns('org');
      expect(listed.map((pattern) => pattern.patternId)).not.toContain(patternId);
    });

    it('refuses a pattern changed since it was read before writing anything', async () => {
      // Prepare
      const patternId = nextId('pat-archive-stale');
      const created = await fx.learning.savePattern(makeRegistryPattern({ patternId }), undefined);
      await fx.learning.savePattern({ ...created, uses: 1 }, created.version);

      // Act
      const archived = fx.learning.archivePattern(created, 'unused for 90 days');

      // Assess
      await expect(archived).rejects.toThrow(VersionConflictError);
      expect(await fx.learning.getPattern('org', patternId)).toMatchObject({ version: 2 });
      expect(await keysUnder(`registry/archive/org/${patternId}/`)).toEqual([]);
    });

    it('keeps the archived copy when the pattern changes between the copy and the delete', async () => {
      // Prepare: a save lands just before the delete is sent.
      const patternId = nextId('pat-archive-race');
      const created = await fx.learning.savePattern(makeRegistryPattern({ patternId }), undefined);
      const client = emulatorDynamoClient(fx.emulators);
      hookRequests(client, 'DeleteItemCommand', async () => {
        await fx.learning.savePattern({ ...created, uses: 1 }, created.version);
      });
      const racing = new DynamoS3LearningStore({
        client,
        tableName: fx.emulators.tableName,
        artefacts: fx.artefacts,
        clock: { now: () => ARCHIVED_AT },
      });

      // Act
      const archived = racing.archivePattern(created, 'superseded');

      // Assess
      await expect(archived).rejects.toThrow(VersionConflictError);
      await expect(archived).rejects.toThrow('expected version 1, but the stored version is 2');
      client.destroy();
      expect(await fx.learning.getPattern('org', patternId)).toMatchObject({ version: 2 });
      expect(await keysUnder(`registry/archive/org/${patternId}/`)).toHaveLength(1);
    });

    it('counts a delete whose reply was lost (the SDK retried it) as done', async () => {
      // Prepare
      const patternId = nextId('pat-archive-lost');
      const created = await fx.learning.savePattern(makeRegistryPattern({ patternId }), undefined);
      const { lossyStore, sent, close } = fx.storeLosingFirstReply('DeleteItemCommand');

      // Act
      const { key } = await lossyStore.archivePattern(created, 'superseded');
      close();

      // Assess
      expect(sent()).toBe(2);
      expect(await fx.learning.getPattern('org', patternId)).toBeUndefined();
      expect(await fx.artefacts.exists(key)).toBe(true);
    });

    it('refuses a pattern that is not in the registry, and one without a reason', async () => {
      // Prepare
      const pattern = makeRegistryPattern({ patternId: nextId('pat-archive-none') });

      // Act
      const [missing, unexplained] = await Promise.allSettled([
        fx.learning.archivePattern(pattern, 'superseded'),
        fx.learning.archivePattern(pattern, '  '),
      ]);

      // Assess
      expect(missing).toMatchObject({ reason: expect.any(NotFoundError) });
      expect(unexplained).toMatchObject({ reason: expect.any(InvalidInputError) });
      expect(unexplained).toMatchObject({
        reason: {
          issues: [expect.stringMatching(/^reason: /)],
        },
      });
      expect(await keysUnder(`registry/archive/org/${pattern.patternId}/`)).toEqual([]);
    });
  });
});
