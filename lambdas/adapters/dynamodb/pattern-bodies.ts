/**
 * Registry patterns too large for an item (DynamoDB refuses one over 400 KB; a code
 * template can be larger): the whole pattern goes to the bucket first, write-once, and the
 * item keeps the pattern's small fields and `bodyKey`, where the whole pattern is. Reads give
 * the pattern back whole, checked against its item (docs/data-model.md, "Learning").
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { NotFoundError, RalphError } from '../../core/errors.js';
import { RegistryPatternSchema, type RegistryPattern } from '../../core/schemas/learning.js';
import { artefactKeys } from '../../core/shared/artefact-keys.js';
import { formatZodIssues } from '../../core/shared/validation.js';
import type { ArtefactStore } from '../../ports.js';
import { patternKey } from './learning-items.js';
import { dropUndefined, parseStoredItem, type Item } from './stored-items.js';

/**
 * Above this many bytes of JSON an item's pattern goes to the bucket. The JSON of an item
 * is close to DynamoDB's count of it (names and values as UTF-8); the 100 KB left below
 * the 400 KB cap absorb the difference and the write id.
 */
export const MAX_INLINE_ITEM_BYTES = 300_000;

/** Hex digits of the body's sha256 in its key: enough that two contents never share one. */
const DIGEST_DIGITS = 16;

/** S3 GETs at once when a listing reads bodies: a few, so a large registry is not serial. */
const BODY_READS_AT_ONCE = 8;

/** An item whose pattern is in the bucket: the fields that grow are left out. */
const OffloadedPatternSchema = RegistryPatternSchema.omit({
  body: true,
  template: true,
  trend: true,
  sources: true,
}).extend({ bodyKey: z.string().min(1) });

export class PatternBodies {
  readonly #artefacts: ArtefactStore;

  constructor(artefacts: ArtefactStore) {
    this.#artefacts = artefacts;
  }

  /**
   * The item of a validated pattern: the whole pattern when it fits, else its small fields
   * and `bodyKey`, once the body is written. The key carries the body's digest, so a retry
   * writes the same key again (accepted: the same bytes) and another content never meets it.
   */
  async itemOf(pattern: RegistryPattern): Promise<Item> {
    const key = patternKey(pattern.scope, pattern.patternId);
    const whole: Item = { ...dropUndefined(pattern), ...key };
    if (Buffer.byteLength(JSON.stringify(whole)) <= MAX_INLINE_ITEM_BYTES) return whole;
    const text = `${JSON.stringify(pattern)}\n`;
    const digest = createHash('sha256').update(text).digest('hex').slice(0, DIGEST_DIGITS);
    const bodyKey = artefactKeys.registryBody(
      pattern.scope,
      pattern.patternId,
      pattern.version,
      digest,
    );
    await this.#artefacts.put(bodyKey, text);
    const { body, template, trend, sources, ...small } = pattern;
    return { ...dropUndefined(small), bodyKey, ...key };
  }

  /** The pattern an item holds, read from the bucket when the item names a body. */
  async patternOf(item: Item, what: string): Promise<RegistryPattern> {
    if (item['bodyKey'] === undefined) return parseStoredItem(RegistryPatternSchema, item, what);
    const stub = parseStoredItem(OffloadedPatternSchema, item, what);
    const where = this.#artefacts.locate(stub.bodyKey);
    const text = await this.#read(stub.bodyKey, where, what);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw corrupt(what, where, [`(root): not valid JSON (${(error as Error).message})`]);
    }
    const parsed = RegistryPatternSchema.safeParse(json);
    if (!parsed.success) throw corrupt(what, where, formatZodIssues(parsed.error));
    const pattern = parsed.data;
    const mismatched = (['scope', 'patternId', 'version'] as const).filter(
      (field) => pattern[field] !== stub[field],
    );
    if (mismatched.length > 0)
      throw corrupt(
        what,
        where,
        mismatched.map((field) => `${field}: ${pattern[field]}, but the item says ${stub[field]}`),
      );
    return pattern;
  }

  /** The patterns of `items` in their order, at most BODY_READS_AT_ONCE bodies read at once. */
  async patternsOf(
    items: readonly Item[],
    whatOf: (item: Item) => string,
  ): Promise<RegistryPattern[]> {
    const patterns: RegistryPattern[] = [];
    for (let start = 0; start < items.length; start += BODY_READS_AT_ONCE)
      patterns.push(
        ...(await Promise.all(
          items
            .slice(start, start + BODY_READS_AT_ONCE)
            .map((item) => this.patternOf(item, whatOf(item))),
        )),
      );
    return patterns;
  }

  /** The body's text; a missing one is a corrupt record (its item names it). */
  async #read(key: string, where: string, what: string): Promise<string> {
    try {
      return await this.#artefacts.getText(key);
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new RalphError(`${what}: its body ${where} is missing`, {
          code: 'CORRUPT_RECORD',
          cause: error,
        });
      throw error;
    }
  }
}

function corrupt(what: string, where: string, issues: readonly string[]): RalphError {
  return new RalphError(
    `${what}: its body ${where} does not hold the pattern:\n  ${issues.join('\n  ')}`,
    { code: 'CORRUPT_RECORD' },
  );
}
