/**
 * Loop control's decisions as tables of rules, after cdk-nag's one rule, one named check:
 * each rule is a named function of the facts and the settings that either rules (with
 * its reason) or passes, and a decision is its table evaluated in order.
 */

/** One rule of a decision: its ruling, or undefined when it does not apply. */
export type Rule<Facts, Settings, Ruling> = (
  facts: Facts,
  settings: Settings,
) => Ruling | undefined;

/**
 * The ruling of the first rule that applies: a decision tree in table form.
 *
 * @example
 * firstRuling([lowPassRate, tooManyWarnings], trends, config) ?? healthy(trends)
 */
export function firstRuling<Facts, Settings, Ruling>(
  rules: readonly Rule<Facts, Settings, Ruling>[],
  facts: Facts,
  settings: Settings,
): Ruling | undefined {
  for (const rule of rules) {
    const ruling = rule(facts, settings);
    if (ruling !== undefined) return ruling;
  }
  return undefined;
}

/**
 * The rulings of every rule that applies, in table order: findings that add up (stagnation
 * patterns, risk signals).
 *
 * @example
 * everyRuling([repeatingErrors, modeOscillation], trends, config) // [{ type: 'repeating_error', ... }]
 */
export function everyRuling<Facts, Settings, Ruling>(
  rules: readonly Rule<Facts, Settings, Ruling>[],
  facts: Facts,
  settings: Settings,
): Ruling[] {
  return rules.flatMap((rule) => {
    const ruling = rule(facts, settings);
    return ruling === undefined ? [] : [ruling];
  });
}
