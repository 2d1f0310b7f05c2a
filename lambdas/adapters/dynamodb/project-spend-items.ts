/**
 * A project's spend per day (docs/data-model.md, "Project spend"): one item per project and
 * UTC day, `pk=PROJECT#<projectId>`, `sk=SPEND#<YYYY-MM-DD>`, whose `usd` grows by atomic
 * ADD. The entries counted are kept in a string set (`counted`), and the update is
 * conditional on the entry not being in it, so a retried step adds its iteration once.
 */
import { InvalidInputError } from '../../core/errors.js';
import { ProjectSpendSchema, type ProjectSpendEntry } from '../../core/schemas/project-spend.js';
import { TABLE_KEYS } from '../table-design.js';
import { TTL_ATTRIBUTE, epochSeconds } from './incident-items.js';
import type { ItemTable } from './item-table.js';
import { parseStoredItem, type Item } from './stored-items.js';

const { partitionKey: PK, sortKey: SK } = TABLE_KEYS;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Kept long enough for a month's look back; the table's TTL removes it after. */
const SPEND_KEEP_SECONDS = 40 * 24 * 3600;

/** The key builders, exported so docs and tests name items as the store does. */
export const projectSpendKeys = {
  pk: (projectId: string) => `PROJECT#${projectId}`,
  sk: (day: string) => `SPEND#${day}`,
} as const;

const spendKey = (projectId: string, day: string): Item => ({
  [PK]: projectSpendKeys.pk(projectId),
  [SK]: projectSpendKeys.sk(day),
});

function checkDay(day: string): void {
  if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
    throw new InvalidInputError('project spend', [`day: "${day}" is not YYYY-MM-DD`]);
}

/**
 * @example
 * const spend = new ProjectSpendItems(table);
 * await spend.add({ projectId: 'shop', day: '2026-11-27', usd: 0.42, countedAs: 'run-1#3' });
 * await spend.get('shop', '2026-11-27'); // 0.42
 */
export class ProjectSpendItems {
  readonly #table: ItemTable;

  constructor(table: ItemTable) {
    this.#table = table;
  }

  async add({ projectId, day, usd, countedAs }: ProjectSpendEntry): Promise<void> {
    checkDay(day);
    if (!Number.isFinite(usd) || usd < 0)
      throw new InvalidInputError('project spend', [`usd: ${usd} is not a non-negative number`]);
    const expiresAt = new Date(Date.parse(`${day}T00:00:00Z`) + SPEND_KEEP_SECONDS * 1000);
    // Refused means the entry is counted already: nothing more to do.
    await this.#table.updateIf(
      {
        key: spendKey(projectId, day),
        update:
          'ADD #usd :usd, #counted :entry SET #projectId = :projectId, #day = :day, #expiresAt = :expiresAt, #ttl = :ttl',
        condition: 'attribute_not_exists(#counted) OR NOT contains(#counted, :key)',
        names: {
          '#usd': 'usd',
          '#counted': 'counted',
          '#projectId': 'projectId',
          '#day': 'day',
          '#expiresAt': 'expiresAt',
          '#ttl': TTL_ATTRIBUTE,
        },
        values: {
          ':usd': usd,
          ':entry': new Set([countedAs]),
          ':key': countedAs,
          ':projectId': projectId,
          ':day': day,
          ':expiresAt': expiresAt.toISOString(),
          ':ttl': epochSeconds(expiresAt.toISOString()),
        },
      },
      `the spend of project ${projectId} on ${day}`,
    );
  }

  async get(projectId: string, day: string): Promise<number> {
    checkDay(day);
    const what = `the spend of project ${projectId} on ${day}`;
    const item = await this.#table.get(spendKey(projectId, day), what);
    return item === undefined ? 0 : parseStoredItem(ProjectSpendSchema, item, what).usd;
  }
}
