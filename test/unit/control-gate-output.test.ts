import { describe, expect, it } from 'vitest';
import {
  diagnosticToolOf,
  parseDiagnosticCounts,
  parseGateOutput,
  parseTestCounts,
} from '../../lambdas/core/tool-output/gate-output.js';

const ESC = '\u001b';

const VITEST_FAILED = `
 RUN  v3.2.4 /home/dev/shop

 ✓ test/unit/price.test.ts (6 tests) 4ms
 ✓ test/unit/format.test.ts (2 tests) 2ms
 ✓ test/unit/tax.test.ts (2 tests) 3ms
 ❯ test/unit/cart.test.ts (2 tests | 2 failed) 9ms
   × Cart > removes an item 5ms
     → expected [ 'apple' ] to deeply equal []
   × Cart > empties 2ms
     → expected 1 to be +0

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/unit/cart.test.ts > Cart > removes an item
AssertionError: expected [ 'apple' ] to deeply equal []

- Expected
+ Received

- []
+ [
+   "apple",
+ ]

 ❯ test/unit/cart.test.ts:14:25
     12|     const cart = new Cart(['apple']);
     13|     cart.remove('apple');
     14|     expect(cart.items).toEqual([]);
       |                         ^

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 Test Files  1 failed | 3 passed (4)
      Tests  2 failed | 10 passed (12)
   Start at  14:02:11
   Duration  1.42s (transform 210ms, setup 0ms, collect 380ms, tests 41ms, environment 1ms, prepare 402ms)
`;

const VITEST_COLOURED =
  `${ESC}[2m Test Files ${ESC}[22m ${ESC}[1m${ESC}[32m5 passed${ESC}[39m${ESC}[22m${ESC}[90m (5)${ESC}[39m\n` +
  `${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${ESC}[32m9 passed${ESC}[39m${ESC}[22m${ESC}[2m | ${ESC}[22m${ESC}[33m2 skipped${ESC}[39m${ESC}[2m | ${ESC}[22m${ESC}[2m1 todo${ESC}[22m${ESC}[90m (12)${ESC}[39m\n` +
  `${ESC}[2m   Start at ${ESC}[22m 09:15:02\n`;

const JEST_FAILED = `PASS src/utils/format.test.js
FAIL src/cart.test.js
  ● Cart › removes an item

    expect(received).toEqual(expected) // deep equality

    - Expected  - 0
    + Received  + 3

    - Array []
    + Array [
    +   "apple",
    + ]

      12 |     const cart = new Cart(['apple']);
      13 |     cart.remove('apple');
    > 14 |     expect(cart.items).toEqual([]);
         |                        ^

      at Object.toEqual (src/cart.test.js:14:24)

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 5 passed, 6 total
Snapshots:   0 total
Time:        1.234 s
Ran all test suites.
`;

const JEST_SKIPS = `Test Suites: 3 passed, 3 total
Tests:       1 skipped, 2 todo, 5 passed, 8 total
Snapshots:   2 passed, 2 total
Time:        0.8 s, estimated 1 s
`;

const NODE_TAP = `TAP version 13
# Subtest: cart
    # Subtest: adds
    ok 1 - adds
      ---
      duration_ms: 0.512
      ...
    # Subtest: removes
    not ok 2 - removes
      ---
      duration_ms: 0.903
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:

        1 !== 0

      code: 'ERR_ASSERTION'
      ...
    1..2
not ok 1 - cart
1..1
# tests 4
# suites 1
# pass 3
# fail 1
# cancelled 0
# skipped 0
# todo 0
# duration_ms 85.21
`;

const NODE_SPEC = `▶ cart
  ✔ adds (0.51ms)
  ✖ removes (0.90ms)
  ﹣ slow (0.02ms) # SKIP
▶ cart (3.1ms)
ℹ tests 5
ℹ suites 1
ℹ pass 2
ℹ fail 1
ℹ cancelled 1
ℹ skipped 1
ℹ todo 0
ℹ duration_ms 70.1
`;

const PYTEST_FAILED = `============================= test session starts ==============================
platform linux -- Python 3.12.1, pytest-8.0.0, pluggy-1.4.0
rootdir: /home/dev/shop
collected 6 items

tests/test_cart.py ..F.s.                                                [100%]

=================================== FAILURES ===================================
_______________________________ test_remove_item _______________________________

    def test_remove_item():
        cart = Cart(["apple"])
>       assert cart.remove("apple") is True
E       AssertionError: assert False is True

tests/test_cart.py:14: AssertionError
=========================== short test summary info ============================
FAILED tests/test_cart.py::test_remove_item - AssertionError: assert False is True
==================== 1 failed, 4 passed, 1 skipped in 0.12s ====================
`;

const CARGO_FAILED = `   Compiling shop v0.1.0 (/home/dev/shop)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 1.02s
     Running unittests src/lib.rs (target/debug/deps/shop-1a2b3c4d5e6f7a8b)

running 5 tests
test tests::adds ... ok
test tests::removes ... FAILED
test tests::slow ... ignored
test tests::totals ... ok
test tests::taxes ... ok

failures:

---- tests::removes stdout ----

thread 'tests::removes' panicked at src/lib.rs:42:9:
assertion \`left == right\` failed
  left: 1
 right: 0
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    tests::removes

test result: FAILED. 3 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass \`--lib\`
`;

const CARGO_OK_SEVERAL_BINARIES = `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.05s
     Running unittests src/lib.rs (target/debug/deps/shop-1a2b3c4d5e6f7a8b)

running 3 tests
test tests::adds ... ok
test tests::removes ... ok
test tests::totals ... ok

test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/api.rs (target/debug/deps/api-9f8e7d6c5b4a3210)

running 2 tests
test lists_items ... ok
test rejects_bad_id ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

   Doc-tests shop

running 1 test
test src/lib.rs - Cart::add (line 5) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.12s

`;

const GO_VERBOSE = `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestRemove
    cart_test.go:21: expected 0 items, got 1
--- FAIL: TestRemove (0.00s)
=== RUN   TestTable
=== RUN   TestTable/empty
=== RUN   TestTable/one
--- PASS: TestTable (0.00s)
    --- PASS: TestTable/empty (0.00s)
    --- PASS: TestTable/one (0.00s)
=== RUN   TestSlow
    cart_test.go:40: skipping in short mode
--- SKIP: TestSlow (0.00s)
FAIL
FAIL	example.com/shop/cart	0.012s
FAIL
`;

const GO_QUIET_FAILED = `--- FAIL: TestRemove (0.00s)
    cart_test.go:21: expected 0 items, got 1
FAIL
FAIL	example.com/shop/cart	0.011s
ok  	example.com/shop/money	(cached)
?   	example.com/shop/cmd/shop	[no test files]
FAIL
`;

const GO_QUIET_OK = `ok  	example.com/shop/cart	0.010s
ok  	example.com/shop/money	(cached)
`;

const GO_JSON = [
  '{"Time":"2026-01-16T14:30:00Z","Action":"start","Package":"example.com/shop/cart"}',
  '{"Time":"2026-01-16T14:30:00Z","Action":"run","Package":"example.com/shop/cart","Test":"TestAdd"}',
  '{"Time":"2026-01-16T14:30:00Z","Action":"output","Package":"example.com/shop/cart","Test":"TestAdd","Output":"--- PASS: TestAdd (0.00s)\\n"}',
  '{"Time":"2026-01-16T14:30:00Z","Action":"pass","Package":"example.com/shop/cart","Test":"TestAdd","Elapsed":0}',
  '{"Time":"2026-01-16T14:30:00Z","Action":"pass","Package":"example.com/shop/cart","Test":"TestTable/empty","Elapsed":0}',
  '{"Time":"2026-01-16T14:30:00Z","Action":"pass","Package":"example.com/shop/cart","Test":"TestTable","Elapsed":0}',
  '{"Time":"2026-01-16T14:30:00Z","Action":"fail","Package":"example.com/shop/cart","Test":"TestRemove","Elapsed":0}',
  '{"Time":"2026-01-16T14:30:00Z","Action":"skip","Package":"example.com/shop/cart","Test":"TestSlow","Elapsed":0}',
  '{"Time":"2026-01-16T14:30:00Z","Action":"fail","Package":"example.com/shop/cart","Elapsed":0.013}',
].join('\n');

const TSC_PLAIN = `src/cart.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/cart.ts(22,3): error TS2554: Expected 1 arguments, but got 2.
src/api.ts(3,10): error TS2305: Module '"./cart"' has no exported member 'Cart'.
`;

const TSC_PRETTY = `src/cart.ts:14:7 - error TS2322: Type 'string' is not assignable to type 'number'.

14   const total: number = "0";
         ~~~~~

src/api.ts:3:10 - error TS2305: Module '"./cart"' has no exported member 'Cart'.

3 import { Cart } from './cart';
           ~~~~


Found 2 errors in 2 files.

Errors  Files
     1  src/api.ts:3
     1  src/cart.ts:14
`;

const ESLINT_STYLISH = `
/home/dev/shop/src/cart.js
   3:10  error    'unused' is defined but never used  no-unused-vars
  12:5   warning  Unexpected console statement        no-console

/home/dev/shop/src/api.js
   7:1  warning  Missing return type on function  @typescript-eslint/explicit-function-return-type
   9:3  error    'x' is not defined               no-undef
  10:3  warning  Unexpected console statement     no-console

✖ 5 problems (2 errors, 3 warnings)
  1 error and 0 warnings potentially fixable with the \`--fix\` option.

`;

const CLIPPY_WARNINGS = `    Checking shop v0.1.0 (/home/dev/shop)
warning: unused variable: \`x\`
 --> src/lib.rs:3:9
  |
3 |     let x = 5;
  |         ^ help: if this is intentional, prefix it with an underscore: \`_x\`
  |
  = note: \`#[warn(unused_variables)]\` on by default

warning: this \`if\` has identical blocks
  --> src/lib.rs:10:5
   |
10 |     if a { 1 } else { 1 }
   |     ^^^^^^^^^^^^^^^^^^^^^
   |
   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else

warning: \`shop\` (lib) generated 2 warnings (run \`cargo clippy --fix --lib -p shop\` to apply 1 suggestion)
warning: \`shop\` (lib test) generated 2 warnings (2 duplicates)
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 0.45s
`;

const CLIPPY_ERROR = `    Checking shop v0.1.0 (/home/dev/shop)
warning: unused variable: \`y\`
 --> src/lib.rs:8:9
  |
8 |     let y = 2;
  |         ^ help: if this is intentional, prefix it with an underscore: \`_y\`

error[E0308]: mismatched types
 --> src/lib.rs:5:18
  |
5 |     let n: u32 = "5";
  |            ---   ^^^ expected \`u32\`, found \`&str\`

For more information about this error, try \`rustc --explain E0308\`.
warning: \`shop\` (lib) generated 1 warning
error: could not compile \`shop\` (lib) due to 1 previous error; 1 warning emitted
`;

const CLIPPY_CLEAN = `    Checking shop v0.1.0 (/home/dev/shop)
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 0.31s
`;

describe('Function: parseTestCounts', () => {
  it('reads a failing vitest run from its Tests line, not its Test Files line', () => {
    expect(parseTestCounts(VITEST_FAILED)).toEqual({
      passed: 10,
      failed: 2,
      skipped: 0,
      total: 12,
      frameworks: ['vitest'],
    });
  });

  it('reads coloured vitest output with skipped and todo tests', () => {
    expect(parseTestCounts(VITEST_COLOURED)).toEqual({
      passed: 9,
      failed: 0,
      skipped: 3,
      total: 12,
      frameworks: ['vitest'],
    });
  });

  it('reads jest summaries, with skipped and todo tests as skipped', () => {
    expect(parseTestCounts(JEST_FAILED)).toEqual({
      passed: 5,
      failed: 1,
      skipped: 0,
      total: 6,
      frameworks: ['jest'],
    });
    expect(parseTestCounts(JEST_SKIPS)).toEqual({
      passed: 5,
      failed: 0,
      skipped: 3,
      total: 8,
      frameworks: ['jest'],
    });
  });

  it('reads node:test TAP output (tsx --test)', () => {
    expect(parseTestCounts(NODE_TAP)).toEqual({
      passed: 3,
      failed: 1,
      skipped: 0,
      total: 4,
      frameworks: ['node-test'],
    });
  });

  it('reads the node:test spec reporter, counting cancelled as failed', () => {
    expect(parseTestCounts(NODE_SPEC)).toEqual({
      passed: 2,
      failed: 2,
      skipped: 1,
      total: 5,
      frameworks: ['node-test'],
    });
  });

  it('reads tape, which prints no fail line when nothing failed', () => {
    expect(
      parseTestCounts('ok 1 adds\nok 2 removes\n\n1..2\n# tests 2\n# pass  2\n\n# ok\n'),
    ).toEqual({
      passed: 2,
      failed: 0,
      skipped: 0,
      total: 2,
      frameworks: ['node-test'],
    });
  });

  it('reads a pytest session summary', () => {
    expect(parseTestCounts(PYTEST_FAILED)).toEqual({
      passed: 4,
      failed: 1,
      skipped: 1,
      total: 6,
      frameworks: ['pytest'],
    });
  });

  it.each([
    ['3 passed, 1 failed in 0.31s', { passed: 3, failed: 1, skipped: 0, total: 4 }],
    ['5 passed, 1 warning in 0.05s', { passed: 5, failed: 0, skipped: 0, total: 5 }],
    ['====== 2 passed, 1 error in 0.30s ======', { passed: 2, failed: 1, skipped: 0, total: 3 }],
    [
      '=== 1 failed, 2 passed, 1 xfailed, 1 xpassed, 3 deselected in 1.20s (0:00:01) ===',
      { passed: 3, failed: 1, skipped: 1, total: 5 },
    ],
    [
      '============ no tests ran in 0.01s ============',
      { passed: 0, failed: 0, skipped: 0, total: 0 },
    ],
  ])('reads the pytest summary %j', (line, counts) => {
    expect(parseTestCounts(line)).toEqual({ ...counts, frameworks: ['pytest'] });
  });

  it('reads a failing cargo test run', () => {
    expect(parseTestCounts(CARGO_FAILED)).toEqual({
      passed: 3,
      failed: 1,
      skipped: 1,
      total: 5,
      frameworks: ['cargo'],
    });
  });

  it('sums the summaries of every cargo test binary, doc-tests included', () => {
    expect(parseTestCounts(CARGO_OK_SEVERAL_BINARIES)).toEqual({
      passed: 6,
      failed: 0,
      skipped: 0,
      total: 6,
      frameworks: ['cargo'],
    });
  });

  it('counts top-level go tests of a -v run, subtests left to their parent', () => {
    expect(parseTestCounts(GO_VERBOSE)).toEqual({
      passed: 2,
      failed: 1,
      skipped: 1,
      total: 4,
      frameworks: ['go'],
    });
  });

  it('counts go test -json events of top-level tests only', () => {
    expect(parseTestCounts(GO_JSON)).toEqual({
      passed: 2,
      failed: 1,
      skipped: 1,
      total: 4,
      frameworks: ['go'],
    });
  });

  it('knows only the failures of a go test run without -v', () => {
    expect(parseTestCounts(GO_QUIET_FAILED)).toEqual({ failed: 1, frameworks: ['go'] });
    expect(parseTestCounts(GO_QUIET_OK)).toEqual({ failed: 0, frameworks: ['go'] });
  });

  it('sums summaries of different frameworks, and leaves out a count one of them lacks', () => {
    expect(parseTestCounts(`${JEST_FAILED}\n${GO_QUIET_FAILED}`)).toEqual({
      failed: 2,
      frameworks: ['jest', 'go'],
    });
  });

  it.each([
    ['empty output', ''],
    ['a build log', '> shop@1.0.0 build\n> tsc -p .\n\nDone in 2.1s\n'],
    [
      'a crash',
      'node:internal/modules/cjs/loader:1147\n  throw err;\n  ^\n\nError: Cannot find module',
    ],
    ['vitest finding no tests', '\nNo test files found, exiting with code 1\n'],
    ['prose mentioning tests', 'Tests are great. 3 tests passed yesterday.\n'],
  ])('is undefined for %s, never a made-up 0', (_what, output) => {
    expect(parseTestCounts(output)).toBeUndefined();
  });
});

describe('Function: parseDiagnosticCounts', () => {
  it('counts tsc errors from their lines when there is no summary', () => {
    expect(parseDiagnosticCounts(TSC_PLAIN)).toEqual({ errors: 3, warnings: 0, tools: ['tsc'] });
  });

  it("takes tsc's Found summary over its lines", () => {
    expect(parseDiagnosticCounts(TSC_PRETTY)).toEqual({ errors: 2, warnings: 0, tools: ['tsc'] });
    expect(parseDiagnosticCounts('Found 1 error in src/cart.ts:14\n')).toEqual({
      errors: 1,
      warnings: 0,
      tools: ['tsc'],
    });
  });

  it("takes eslint's problem summary", () => {
    expect(parseDiagnosticCounts(ESLINT_STYLISH)).toEqual({
      errors: 2,
      warnings: 3,
      tools: ['eslint'],
    });
  });

  it('counts eslint stylish lines when the summary was cut off', () => {
    const cut = ESLINT_STYLISH.slice(0, ESLINT_STYLISH.indexOf('✖'));
    expect(parseDiagnosticCounts(cut)).toEqual({ errors: 2, warnings: 3, tools: ['eslint'] });
  });

  it('counts clippy warnings from the generated summaries, duplicates left out', () => {
    expect(parseDiagnosticCounts(CLIPPY_WARNINGS)).toEqual({
      errors: 0,
      warnings: 2,
      tools: ['clippy'],
    });
  });

  it("does not count a failed target's warnings twice (generated and emitted)", () => {
    expect(parseDiagnosticCounts(CLIPPY_ERROR)).toEqual({
      errors: 1,
      warnings: 1,
      tools: ['clippy'],
    });
  });

  it('counts clippy warning lines when no summary is printed', () => {
    const cut = CLIPPY_WARNINGS.split('\n')
      .filter((line) => !line.includes('generated'))
      .join('\n');
    expect(parseDiagnosticCounts(cut)).toEqual({ errors: 0, warnings: 2, tools: ['clippy'] });
  });

  it('reads clean cargo output as 0 and 0: cargo prints its own lines even then', () => {
    expect(parseDiagnosticCounts(CLIPPY_CLEAN)).toEqual({
      errors: 0,
      warnings: 0,
      tools: ['clippy'],
    });
  });

  it("does not take cargo test's 'test failed' line for a compiler error", () => {
    expect(parseDiagnosticCounts(CARGO_FAILED)).toEqual({
      errors: 0,
      warnings: 0,
      tools: ['clippy'],
    });
  });

  it('sums several tools in one output', () => {
    expect(parseDiagnosticCounts(`${ESLINT_STYLISH}${TSC_PRETTY}`)).toEqual({
      errors: 4,
      warnings: 3,
      tools: ['tsc', 'eslint'],
    });
  });

  it("does not take another tool's warning lines for rust's", () => {
    expect(
      parseDiagnosticCounts(
        'npm warn deprecated glob@7.2.3\nwarning: LF will be replaced by CRLF\n',
      ),
    ).toBeUndefined();
  });

  it('is undefined for empty output unless a tool is known to have run clean', () => {
    expect(parseDiagnosticCounts('')).toBeUndefined();
    expect(parseDiagnosticCounts('', { cleanTool: 'tsc' })).toEqual({
      errors: 0,
      warnings: 0,
      tools: ['tsc'],
    });
  });

  it('prefers what the output says over the clean-tool assumption', () => {
    expect(parseDiagnosticCounts(ESLINT_STYLISH, { cleanTool: 'eslint' })).toEqual({
      errors: 2,
      warnings: 3,
      tools: ['eslint'],
    });
  });
});

describe('Function: diagnosticToolOf', () => {
  it.each([
    ['npx tsc --noEmit -p .', 'tsc'],
    ['tsc', 'tsc'],
    ['node_modules/.bin/tsc -b', 'tsc'],
    ['npx eslint .', 'eslint'],
    ['eslint src --max-warnings 0', 'eslint'],
    ['cargo clippy --all-targets -- -D warnings', 'clippy'],
    ['npm run lint', undefined],
    ['vitest run', undefined],
    ['npx tsc-watch', undefined],
    ['eslint-config-check', undefined],
  ])('%s → %s', (command, tool) => {
    expect(diagnosticToolOf(command)).toBe(tool);
  });
});

describe('Function: parseGateOutput', () => {
  it('gives tests and diagnostics found in one output', () => {
    expect(parseGateOutput(`${TSC_PLAIN}\n${VITEST_FAILED}`)).toEqual({
      tests: { passed: 10, failed: 2, skipped: 0, total: 12, frameworks: ['vitest'] },
      diagnostics: { errors: 3, warnings: 0, tools: ['tsc'] },
    });
  });

  it('leaves out what it did not find', () => {
    expect(parseGateOutput(JEST_FAILED)).toEqual({
      tests: { passed: 5, failed: 1, skipped: 0, total: 6, frameworks: ['jest'] },
    });
    expect(parseGateOutput('Done in 2.1s')).toEqual({});
  });
});
