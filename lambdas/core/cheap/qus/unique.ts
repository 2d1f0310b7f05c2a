/**
 * QUS "unique": no story of a backlog is the same as another. Two stories are the same when
 * their means and ends share nearly all their words (Jaccard similarity of the word sets at
 * least the threshold), whatever their roles: QUS counts "the same story for a different
 * role" as a duplicate too.
 *
 * Comparing every pair of a 10,000-story backlog is 50 million comparisons; prefix filtering
 * (Chaudhuri et al. 2006; Xiao et al., PPJoin, 2008) compares only the pairs that share a word
 * among each story's rarest ones, which two stories above the threshold must, and checks
 * sizes first.
 */

/** One story's words, and what it is compared on. */
export interface UniqueInput {
  readonly id: string;
  /** The words compared: the means and ends (the whole text when it has no means). */
  readonly text: string;
}

/** A story that has a duplicate, and the most similar one. */
export interface Duplicate {
  readonly otherId: string;
  readonly similarity: number;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/**
 * A text's distinct words, lower-cased: what two stories are compared on.
 *
 * @example
 * wordSet('Export the export log'); // ['export', 'the', 'log']
 */
export function wordSet(text: string): string[] {
  return [...new Set(text.toLowerCase().match(WORD) ?? [])];
}

/**
 * Jaccard similarity of two sorted arrays of distinct numbers (word ids). Not the shared
 * `jaccard` of sets of strings (`shared/text.ts`): the prefix filter needs the words as ids
 * in rarest-first order anyway, and a merge walk over two short sorted arrays is what keeps
 * a 10,000-story backlog under a second.
 *
 * @example
 * jaccard(Int32Array.of(1, 2, 3), Int32Array.of(2, 3, 4)); // 0.5
 */
export function jaccard(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! === b[j]!) {
      common += 1;
      i += 1;
      j += 1;
    } else if (a[i]! < b[j]!) i += 1;
    else j += 1;
  }
  return common / (a.length + b.length - common);
}

/**
 * For each story with a duplicate at `threshold` or above (0 < threshold ≤ 1), its most
 * similar other story. Stories without words are never duplicates.
 *
 * @example
 * findDuplicates([{ id: 'a', text: 'to export invoices' }, { id: 'b', text: 'to export invoices' }], 0.9);
 * // Map { 'a' => { otherId: 'b', similarity: 1 }, 'b' => { otherId: 'a', similarity: 1 } }
 */
export function findDuplicates(
  stories: readonly UniqueInput[],
  threshold: number,
): Map<number, Duplicate> {
  const t = Math.min(1, Math.max(threshold, Number.EPSILON));
  const words = stories.map((story) => wordSet(story.text));
  // Rarest words first: the prefixes then hold the words fewest stories share.
  const frequency = new Map<string, number>();
  for (const set of words)
    for (const word of set) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const rank = new Map(
    [...frequency.entries()]
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
      .map(([word], index) => [word, index]),
  );
  const tokens = words.map((set) => Int32Array.from(set.map((word) => rank.get(word)!)).sort());
  const order = stories.map((_, index) => index).filter((index) => tokens[index]!.length > 0);
  order.sort((a, b) => tokens[a]!.length - tokens[b]!.length);

  const best = new Map<number, Duplicate>();
  const keep = (index: number, otherIndex: number, similarity: number): void => {
    const current = best.get(index);
    if (current === undefined || similarity > current.similarity)
      best.set(index, { otherId: stories[otherIndex]!.id, similarity });
  };
  const index = new Map<number, number[]>();
  const seen = new Int32Array(stories.length).fill(-1);
  for (const x of order) {
    const mine = tokens[x]!;
    const prefix = Math.min(mine.length, mine.length - Math.ceil(t * mine.length) + 1);
    const minSize = Math.ceil(t * mine.length);
    for (let p = 0; p < prefix; p += 1) {
      const list = index.get(mine[p]!);
      if (list === undefined) continue;
      for (const y of list) {
        if (seen[y] === x || tokens[y]!.length < minSize) continue;
        seen[y] = x;
        const similarity = jaccard(mine, tokens[y]!);
        if (similarity + 1e-12 < t) continue;
        keep(x, y, similarity);
        keep(y, x, similarity);
      }
    }
    for (let p = 0; p < prefix; p += 1) {
      const list = index.get(mine[p]!);
      if (list) list.push(x);
      else index.set(mine[p]!, [x]);
    }
  }
  return best;
}
