import { describe, expect, it } from 'vitest';
import { tableStyle } from '../../bin/cli/table-style.js';

describe('Function: tableStyle', () => {
  it('colours the borders only on a terminal without NO_COLOR', () => {
    expect(tableStyle({ isTTY: true }, {})).toEqual({ head: [], border: ['grey'] });
    expect(tableStyle({ isTTY: true }, { NO_COLOR: '1' })).toEqual({ head: [], border: [] });
    expect(tableStyle({ isTTY: false }, {})).toEqual({ head: [], border: [] });
    expect(tableStyle({}, {})).toEqual({ head: [], border: [] });
  });
});
