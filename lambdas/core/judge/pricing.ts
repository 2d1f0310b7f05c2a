/**
 * What a model call costs: the one price table every priced cost line uses (the judge's,
 * the proposer's, and an agent's that reports tokens but no cost). Prices are USD per
 * million tokens, as Anthropic publishes them (platform.claude.com "Models & pricing",
 * checked against the model overview pages) on the table's `asOf` date; a run's config can
 * override models' prices (`pricing`, see {@link pricingFor}). A model id not in the table
 * is priced by its family, and failing that by the default. Cache reads and writes are not
 * priced: the judge does not use prompt caching.
 */

export interface ModelPrice {
  /** USD per million input tokens. */
  inputPerMTok: number;
  /** USD per million output tokens. */
  outputPerMTok: number;
}

/** How a price was found: the model's own entry, its family's, or the default. */
export type PriceSource = 'model' | 'family' | 'default';

export interface ResolvedPrice extends ModelPrice {
  source: PriceSource;
  /** The id the table was searched with (date, region and version suffixes removed). */
  normalizedModel: string;
}

export interface PricingTable {
  /** The day the prices were checked (YYYY-MM-DD): receipts name it. */
  asOf: string;
  models: Readonly<Record<string, ModelPrice>>;
  /** Checked in order: the first family whose name appears in the model id prices it. */
  families: readonly { family: string; price: ModelPrice }[];
  default: ModelPrice;
}

const price = (inputPerMTok: number, outputPerMTok: number): ModelPrice => ({
  inputPerMTok,
  outputPerMTok,
});

/** The published list prices (standard tier, no batch discount). */
export const DEFAULT_PRICING: PricingTable = {
  asOf: '2026-11-23',
  models: {
    'claude-fable-5-1': price(10, 50),
    'claude-fable-5': price(10, 50),
    'claude-mythos-5-1': price(10, 50),
    'claude-mythos-5': price(10, 50),
    'claude-opus-5-5': price(4, 20),
    'claude-opus-5': price(5, 25),
    'claude-opus-4-8': price(5, 25),
    'claude-opus-4-7': price(5, 25),
    'claude-opus-4-6': price(5, 25),
    'claude-opus-4-5': price(5, 25),
    'claude-opus-4-1': price(15, 75),
    'claude-opus-4': price(15, 75),
    'claude-sonnet-5-5': price(2, 10),
    'claude-sonnet-5': price(2, 10),
    'claude-sonnet-4-6': price(3, 15),
    'claude-sonnet-4-5': price(3, 15),
    'claude-sonnet-4': price(3, 15),
    'claude-3-7-sonnet': price(3, 15),
    'claude-haiku-4-5': price(1, 5),
    'claude-3-5-haiku': price(0.8, 4),
    'claude-3-haiku': price(0.25, 1.25),
  },
  // A new model of a known family is priced like the family's dearest current member,
  // so that an unknown id over-states the cost rather than hiding it.
  families: [
    { family: 'fable', price: price(10, 50) },
    { family: 'mythos', price: price(10, 50) },
    { family: 'opus', price: price(5, 25) },
    { family: 'sonnet', price: price(3, 15) },
    { family: 'haiku', price: price(1, 5) },
  ],
  default: price(3, 15),
};

/**
 * The id as the Anthropic API names the model: Bedrock's region prefix, `anthropic.` and
 * `-v1:0` suffix, Vertex's `@date`, a `-YYYYMMDD` snapshot date and a `[1m]` context
 * marker are removed.
 *
 * @example
 * normalizeModelId('us.anthropic.claude-sonnet-4-5-20250929-v1:0'); // 'claude-sonnet-4-5'
 */
export function normalizeModelId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/\[[^\]]*\]$/, '')
    .replace(/^(?:[a-z]{2,6}\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/@\d{8}$/, '')
    .replace(/-\d{8}$/, '');
}

/**
 * The price of `model`: its own entry, else its family's, else the table's default.
 *
 * @example
 * priceOf('claude-haiku-4-5-20251001'); // { inputPerMTok: 1, outputPerMTok: 5, source: 'model', ... }
 * priceOf('claude-opus-9').source;      // 'family'
 */
export function priceOf(model: string, table: PricingTable = DEFAULT_PRICING): ResolvedPrice {
  const normalizedModel = normalizeModelId(model);
  const own = table.models[normalizedModel];
  if (own) return { ...own, source: 'model', normalizedModel };
  const family = table.families.find((entry) => normalizedModel.includes(entry.family));
  if (family) return { ...family.price, source: 'family', normalizedModel };
  return { ...table.default, source: 'default', normalizedModel };
}

/**
 * USD for one call's tokens, rounded to a millionth of a dollar.
 *
 * @example
 * costUsd('claude-sonnet-4-6', { inputTokens: 2_000, outputTokens: 400 }); // 0.012
 */
export function costUsd(
  model: string,
  usage: { inputTokens: number; outputTokens: number },
  table: PricingTable = DEFAULT_PRICING,
): number {
  const { inputPerMTok, outputPerMTok } = priceOf(model, table);
  const usd = (usage.inputTokens * inputPerMTok + usage.outputTokens * outputPerMTok) / 1_000_000;
  return Math.round(usd * 1_000_000) / 1_000_000;
}

/** A run config's `pricing`: models' prices that replace the table's, and their date. */
export interface PricingOverride {
  asOf: string;
  models: Readonly<Record<string, ModelPrice>>;
}

/**
 * The table a run prices with: the default, with the override's models (ids normalised as
 * the table is searched) replacing or adding entries, dated by the override.
 *
 * @example
 * pricingFor({ asOf: '2026-12-01', models: { 'claude-sonnet-4-6': { inputPerMTok: 2, outputPerMTok: 10 } } }).asOf;
 * // '2026-12-01'
 */
export function pricingFor(
  override: PricingOverride | undefined,
  table: PricingTable = DEFAULT_PRICING,
): PricingTable {
  if (!override) return table;
  const models = Object.fromEntries(
    Object.entries(override.models).map(([model, price]) => [normalizeModelId(model), price]),
  );
  return { ...table, asOf: override.asOf, models: { ...table.models, ...models } };
}
