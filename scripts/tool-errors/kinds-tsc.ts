/** TypeScript compiler errors (`tsc --noEmit` under strict, NodeNext, verbatimModuleSyntax). */
import type { ErrorKind, Names } from './kind.js';

const src = (n: Names, text: string) => ({ [`src/${n.file}.ts`]: text });

export const TSC_KINDS: ErrorKind[] = [
  {
    id: 'ts2304-cannot-find-name',
    tool: 'tsc',
    title:
      'TS2304 Cannot find name: a function or variable used without being imported or declared',
    body: 'Import the name from the module that exports it (with the .js suffix under NodeNext), or declare it; check its spelling against the export.',
    tags: ['typescript', 'imports'],
    instances: 3,
    files: (n) => src(n, `export const total = ${n.fn}(2);\n`),
  },
  {
    id: 'ts2345-argument-type',
    tool: 'tsc',
    title: 'TS2345 Argument of type X is not assignable to parameter of type Y',
    body: 'Convert the argument at the call site (Number(), String(), a parse) or widen the parameter type when both are valid inputs; do not cast with as.',
    tags: ['typescript', 'types'],
    instances: 3,
    files: (n) =>
      src(
        n,
        `function ${n.fn}(count: number): number {\n  return count * 2;\n}\nexport const result = ${n.fn}('3');\n`,
      ),
  },
  {
    id: 'ts2322-type-not-assignable',
    tool: 'tsc',
    title: 'TS2322 Type X is not assignable to type Y in an assignment or return',
    body: 'Make the value match the declared type: fix the value, or change the declared type of the variable or return type if the new type is intended.',
    tags: ['typescript', 'types'],
    instances: 3,
    files: (n) => src(n, `export const ${n.field}: number = '2026-01-01';\n`),
  },
  {
    id: 'ts2339-property-does-not-exist',
    tool: 'tsc',
    title: 'TS2339 Property does not exist on type: reading a field the type does not declare',
    body: 'Add the property to the interface or type where the object is defined, or narrow the union first (in, typeof, a discriminant) before reading it.',
    tags: ['typescript', 'types', 'interfaces'],
    instances: 3,
    files: (n) =>
      src(n, `const ${n.value} = { id: 'a1' };\nexport const value = ${n.value}.${n.field};\n`),
  },
  {
    id: 'ts2307-cannot-find-module',
    tool: 'tsc',
    title: 'TS2307 Cannot find module or its corresponding type declarations',
    body: 'Install the package (and its @types package when it ships no types) or fix the import path; a relative path needs ./ and the .js suffix.',
    tags: ['typescript', 'dependencies', 'imports'],
    instances: 3,
    files: (n) => src(n, `import { ${n.fn} } from '${n.pkg}';\nexport const f = ${n.fn};\n`),
  },
  {
    id: 'ts7006-implicit-any-parameter',
    tool: 'tsc',
    title: "TS7006 Parameter implicitly has an 'any' type under noImplicitAny",
    body: 'Give the parameter an explicit type annotation; for callbacks, type the function that receives them so the parameter type is inferred.',
    tags: ['typescript', 'strict'],
    instances: 3,
    files: (n) => src(n, `export function ${n.fn}(${n.value}) {\n  return ${n.value};\n}\n`),
  },
  {
    id: 'ts18048-possibly-undefined',
    tool: 'tsc',
    title:
      'TS18048 Value is possibly undefined (array index or optional property under noUncheckedIndexedAccess)',
    body: 'Check the value before using it (if (!x) return or throw), use optional chaining, or give a default with ??; avoid the non-null assertion.',
    tags: ['typescript', 'strict', 'null-safety'],
    instances: 3,
    files: (n) =>
      src(
        n,
        `const ${n.value}s = [1.5, 2.5];\nconst first = ${n.value}s[0];\nexport const text = first.toFixed(1);\n`,
      ),
  },
  {
    id: 'ts2554-argument-count',
    tool: 'tsc',
    title: 'TS2554 Expected N arguments, but got M: a call with too few or too many arguments',
    body: 'Pass every required argument (read the function signature), or make the parameter optional with a default when callers may leave it out.',
    tags: ['typescript', 'functions'],
    instances: 3,
    files: (n) =>
      src(
        n,
        `function ${n.fn}(id: string, count: number): string {\n  return id + count;\n}\nexport const out = ${n.fn}('a');\n`,
      ),
  },
  {
    id: 'ts2741-missing-property',
    tool: 'tsc',
    title:
      'TS2741 Property is missing in type but required in type: an object literal lacks a field',
    body: 'Add the missing property to the object, or mark it optional in the interface if it really can be absent.',
    tags: ['typescript', 'interfaces'],
    instances: 3,
    files: (n) =>
      src(
        n,
        `interface ${n.Type} {\n  id: string;\n  ${n.field}: string;\n}\nexport const item: ${n.Type} = { id: 'a1' };\n`,
      ),
  },
  {
    id: 'ts6133-declared-never-read',
    tool: 'tsc',
    title: 'TS6133 Declared but its value is never read (noUnusedLocals)',
    body: 'Remove the unused variable or import, or use it; prefix an intentionally unused parameter with an underscore.',
    tags: ['typescript', 'unused'],
    instances: 3,
    files: (n) =>
      src(n, `export function ${n.fn}(): number {\n  const ${n.value} = 3;\n  return 4;\n}\n`),
  },
  {
    id: 'ts2305-no-exported-member',
    tool: 'tsc',
    title: 'TS2305 Module has no exported member: importing a name the module does not export',
    body: 'Export the name from the module (export function / export const), or import the name it really exports; check default vs named exports.',
    tags: ['typescript', 'imports', 'exports'],
    instances: 3,
    files: (n) => ({
      [`src/${n.file}-lib.ts`]: `export const version = 1;\n`,
      ...src(n, `import { ${n.fn} } from './${n.file}-lib.js';\nexport const f = ${n.fn};\n`),
    }),
  },
  {
    id: 'ts2835-relative-import-extension',
    tool: 'tsc',
    title:
      'TS2835 Relative import paths need explicit file extensions under node16/nodenext module resolution',
    body: "Write relative imports with the .js extension (import { x } from './x.js') even for .ts sources; the compiler maps it to the .ts file.",
    tags: ['typescript', 'esm', 'imports'],
    instances: 3,
    files: (n) => ({
      [`src/${n.file}-lib.ts`]: `export const ${n.fn} = () => 1;\n`,
      ...src(n, `import { ${n.fn} } from './${n.file}-lib';\nexport const f = ${n.fn};\n`),
    }),
  },
  {
    id: 'ts1484-type-only-import',
    tool: 'tsc',
    title:
      'TS1484 A type must be imported using a type-only import when verbatimModuleSyntax is enabled',
    body: 'Use import type { X } for interfaces and types (or the inline form import { type X, y }); values keep the plain import.',
    tags: ['typescript', 'imports', 'esm'],
    instances: 3,
    files: (n) => ({
      [`src/${n.file}-types.ts`]: `export interface ${n.Type} {\n  id: string;\n}\n`,
      ...src(
        n,
        `import { ${n.Type} } from './${n.file}-types.js';\nexport const one: ${n.Type} = { id: 'a' };\n`,
      ),
    }),
  },
  {
    id: 'ts18046-unknown-catch',
    tool: 'tsc',
    title: "TS18046 Variable is of type 'unknown': using a caught error without narrowing it",
    body: 'Narrow it first: if (error instanceof Error) use error.message, else String(error); do not annotate the catch variable as any.',
    tags: ['typescript', 'errors', 'strict'],
    instances: 3,
    files: (n) =>
      src(
        n,
        `export function ${n.fn}(): string {\n  try {\n    return JSON.parse('{');\n  } catch (${n.value}Error) {\n    return ${n.value}Error.message;\n  }\n}\n`,
      ),
  },
  {
    id: 'ts2564-no-initializer',
    tool: 'tsc',
    title: 'TS2564 Property has no initializer and is not definitely assigned in the constructor',
    body: 'Initialise the class property where it is declared or in the constructor, or make it optional; use a constructor parameter property when it comes from outside.',
    tags: ['typescript', 'classes', 'strict'],
    instances: 2,
    files: (n) => src(n, `export class ${n.Type}Service {\n  ${n.field}: string;\n}\n`),
  },
  {
    id: 'ts2367-no-overlap',
    tool: 'tsc',
    title: 'TS2367 This comparison appears to be unintentional because the types have no overlap',
    body: 'Compare against a value the type can hold: add the missing member to the union, or fix the literal being compared.',
    tags: ['typescript', 'unions'],
    instances: 2,
    files: (n) =>
      src(
        n,
        `type Status = 'open' | 'paid';\nexport function ${n.fn}(status: Status): boolean {\n  return status === 'cancelled';\n}\n`,
      ),
  },
  {
    id: 'ts1005-syntax-expected',
    tool: 'tsc',
    title: "TS1005 ')' expected (or ';' expected): a syntax error, usually an unclosed bracket",
    body: 'Find the unbalanced bracket, parenthesis or brace the error points just after; a syntax error hides every type error after it.',
    tags: ['typescript', 'syntax'],
    instances: 2,
    files: (n) => src(n, `export const ${n.value} = Math.max(1, 2;\n`),
  },
];
