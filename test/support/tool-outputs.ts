/**
 * What test runners, compilers and linters print, as the tool-output tests read it: real
 * output of each tool, shortened.
 */
import { readToolOutput, type ReadOptions } from '../../lambdas/core/tool-output/read-output.js';

const ESC = '\u001b';

export const VITEST_FAILED = `
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

export const VITEST_COLOURED =
  `${ESC}[2m Test Files ${ESC}[22m ${ESC}[1m${ESC}[32m5 passed${ESC}[39m${ESC}[22m${ESC}[90m (5)${ESC}[39m\n` +
  `${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${ESC}[32m9 passed${ESC}[39m${ESC}[22m${ESC}[2m | ${ESC}[22m${ESC}[33m2 skipped${ESC}[39m${ESC}[2m | ${ESC}[22m${ESC}[2m1 todo${ESC}[22m${ESC}[90m (12)${ESC}[39m\n` +
  `${ESC}[2m   Start at ${ESC}[22m 09:15:02\n`;

export const JEST_FAILED = `PASS src/utils/format.test.js
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

export const JEST_SKIPS = `Test Suites: 3 passed, 3 total
Tests:       1 skipped, 2 todo, 5 passed, 8 total
Snapshots:   2 passed, 2 total
Time:        0.8 s, estimated 1 s
`;

export const NODE_TAP = `TAP version 13
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

export const NODE_SPEC = `▶ cart
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

export const PYTEST_FAILED = `============================= test session starts ==============================
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

export const CARGO_FAILED = `   Compiling shop v0.1.0 (/home/dev/shop)
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

export const CARGO_OK_SEVERAL_BINARIES = `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.05s
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

export const GO_VERBOSE = `=== RUN   TestAdd
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

export const GO_QUIET_FAILED = `--- FAIL: TestRemove (0.00s)
    cart_test.go:21: expected 0 items, got 1
FAIL
FAIL	example.com/shop/cart	0.011s
ok  	example.com/shop/money	(cached)
?   	example.com/shop/cmd/shop	[no test files]
FAIL
`;

export const GO_QUIET_OK = `ok  	example.com/shop/cart	0.010s
ok  	example.com/shop/money	(cached)
`;

export const GO_JSON = [
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

export const TSC_PLAIN = `src/cart.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/cart.ts(22,3): error TS2554: Expected 1 arguments, but got 2.
src/api.ts(3,10): error TS2305: Module '"./cart"' has no exported member 'Cart'.
`;

export const TSC_PRETTY = `src/cart.ts:14:7 - error TS2322: Type 'string' is not assignable to type 'number'.

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

export const ESLINT_STYLISH = `
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

export const CLIPPY_WARNINGS = `    Checking shop v0.1.0 (/home/dev/shop)
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

export const CLIPPY_ERROR = `    Checking shop v0.1.0 (/home/dev/shop)
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

export const CLIPPY_CLEAN = `    Checking shop v0.1.0 (/home/dev/shop)
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 0.31s
`;

// Failures, as retry classification reads them.

export const TSC_ERRORS = [
  "src/cart/total.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  "src/cart/total.ts(20,11): error TS2339: Property 'qty' does not exist on type 'Item'.",
].join('\n');

export const TSC_PRETTY_COLOURED = [
  `${ESC}[96msrc/cart/total.ts${ESC}[0m:${ESC}[93m12${ESC}[0m:${ESC}[93m5${ESC}[0m - ${ESC}[91merror${ESC}[0m${ESC}[90m TS2322: ${ESC}[0mType 'string' is not assignable to type 'number'.`,
  '',
  `${ESC}[7m12${ESC}[0m   total = '0';`,
  `${ESC}[7m  ${ESC}[0m ${ESC}[91m  ~~~~~${ESC}[0m`,
  '',
  'Found 1 error in src/cart/total.ts:12',
].join('\n');

export const RUSTC_ERROR = [
  '   Compiling cart v0.1.0 (/work/cart)',
  'error[E0308]: mismatched types',
  '  --> src/main.rs:12:5',
  '   |',
  '12 |     "0"',
  '   |     ^^^ expected `u32`, found `&str`',
  '',
  'For more information about this error, try `rustc --explain E0308`.',
  'error: could not compile `cart` (bin "cart") due to 1 previous error',
].join('\n');

export const VITEST_FAILURE = [
  ' ❯ test/unit/cart.test.ts (3 tests | 1 failed) 12ms',
  '   ✓ cart > adds items 2ms',
  '   × cart > computes the total 5ms',
  '     → expected 3 to be 4 // Object.is equality',
  '',
  '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
  '',
  ' FAIL  test/unit/cart.test.ts > cart > computes the total',
  'AssertionError: expected 3 to be 4 // Object.is equality',
  '',
  ' Test Files  1 failed (1)',
].join('\n');

export const JEST_FAILURE = [
  'FAIL src/cart.test.js (5.123 s)',
  '  cart',
  '    ✓ adds items (3 ms)',
  '    ✕ computes the total (5 ms)',
  '',
  '  ● cart › computes the total',
  '',
  '    expect(received).toBe(expected) // Object.is equality',
].join('\n');

export const NODE_TAP_NESTED = [
  'TAP version 13',
  '# Subtest: cart',
  '    # Subtest: computes the total',
  '    not ok 1 - computes the total',
  '      ---',
  '      duration_ms: 0.9',
  "      location: '/work/test/cart.test.js:8:3'",
  "      failureType: 'testCodeFailure'",
  '      ...',
  '    1..1',
  'not ok 1 - cart',
  '  ---',
  "  location: '/work/test/cart.test.js:5:1'",
].join('\n');

export const PYTEST_SHORT_SUMMARY = [
  '=========================== short test summary info ============================',
  'FAILED tests/test_cart.py::test_total - assert 3 == 4',
  "FAILED tests/test_cart.py::TestCart::test_empty - KeyError: 'items'",
  '========================= 2 failed, 5 passed in 0.12s ==========================',
].join('\n');

/** The test counts of an output, as the dispatcher sums them. */
export const testsOf = (output: string) => readToolOutput(output).counts.tests;
/** The diagnostic counts of an output (`options`: the command that printed it). */
export const diagnosticsOf = (output: string, options?: ReadOptions) =>
  readToolOutput(output, options).counts.diagnostics;
export const countsOf = (output: string) => readToolOutput(output).counts;
export const compilerErrorOf = (output: string) => readToolOutput(output).compilerError;
export const testFailureOf = (output: string) => readToolOutput(output).testFailure;
