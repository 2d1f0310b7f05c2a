/** The cart's total in cents, with an optional percentage discount. */
export function total(items, discount) {
  const sum = items.reduce((running, item) => running + item.price, 0);
  return sum - (sum * discount.percent) / 100;
}
