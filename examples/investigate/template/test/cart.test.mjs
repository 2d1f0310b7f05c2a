import { test } from 'node:test';
import assert from 'node:assert/strict';
import { total } from '../src/cart.mjs';

test('a discount comes off the sum', () => {
  assert.equal(total([{ price: 1000 }, { price: 500 }], { percent: 10 }), 1350);
});
