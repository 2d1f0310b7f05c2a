/**
 * Every tool family, in the order their readings are combined. The order decides two
 * things: the order of the frameworks in test counts (node:test, vitest, jest, pytest,
 * cargo, go), and which compiler error a line is taken for when two families' formats
 * both fit it (tsc, then rustc, then the GNU format, then go, then syntax errors:
 * `./main.go:1:2: error: x` is a GNU-format error saying `x`).
 */
import { cargo } from './cargo.js';
import { eslint } from './eslint.js';
import type { ToolFamily } from './family.js';
import { gnuFormat } from './gnu-format.js';
import { go } from './go.js';
import { nodeTest } from './node-test.js';
import { pytest } from './pytest.js';
import { syntaxErrors } from './syntax-errors.js';
import { tsc } from './tsc.js';
import { vitestJest } from './vitest-jest.js';

export const FAMILIES: readonly ToolFamily[] = [
  nodeTest,
  vitestJest,
  pytest,
  tsc,
  eslint,
  cargo,
  gnuFormat,
  go,
  syntaxErrors,
];
