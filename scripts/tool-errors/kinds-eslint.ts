/** ESLint errors (eslint . with js recommended, typescript-eslint recommended and eqeqeq). */
import type { ErrorKind, Names } from './kind.js';

const ts = (n: Names, text: string) => ({ [`src/${n.file}.ts`]: text });

export const ESLINT_KINDS: ErrorKind[] = [
  {
    id: 'eslint-no-unused-vars',
    tool: 'eslint',
    title:
      '@typescript-eslint/no-unused-vars: a variable, import or parameter is assigned but never used',
    body: 'Delete the unused binding (and its import), or use it; name an intentionally unused parameter with a leading underscore if the config allows it.',
    tags: ['eslint', 'typescript', 'unused'],
    instances: 3,
    files: (n) =>
      ts(n, `export function ${n.fn}(): number {\n  const ${n.value} = 2;\n  return 1;\n}\n`),
  },
  {
    id: 'eslint-no-explicit-any',
    tool: 'eslint',
    title: '@typescript-eslint/no-explicit-any: Unexpected any, specify a different type',
    body: 'Replace any with the real type, with unknown and a narrowing check, or with a generic type parameter; parse untrusted input with a zod schema.',
    tags: ['eslint', 'typescript', 'types'],
    instances: 3,
    files: (n) =>
      ts(
        n,
        `export function ${n.fn}(${n.value}: any): string {\n  return String(${n.value});\n}\n`,
      ),
  },
  {
    id: 'eslint-no-undef',
    tool: 'eslint',
    title: 'no-undef: a global or name is used but not defined (plain JavaScript files)',
    body: 'Import the name, or declare the environment globals in the ESLint config (languageOptions.globals, e.g. globals.node) when it is a runtime global.',
    tags: ['eslint', 'javascript', 'globals'],
    instances: 3,
    files: (n) => ({ [`src/${n.file}.js`]: `export const total = ${n.fn}(2);\n` }),
  },
  {
    id: 'eslint-prefer-const',
    tool: 'eslint',
    title: 'prefer-const: a let binding is never reassigned, use const instead',
    body: 'Declare it with const; keep let only for bindings that are reassigned later (eslint --fix does this).',
    tags: ['eslint', 'style'],
    instances: 3,
    files: (n) =>
      ts(
        n,
        `export function ${n.fn}(): number {\n  let ${n.value} = 2;\n  return ${n.value} + 1;\n}\n`,
      ),
  },
  {
    id: 'eslint-no-var',
    tool: 'eslint',
    title: 'no-var: Unexpected var, use let or const instead',
    body: 'Replace var with const (or let when reassigned); mind that var is function-scoped, so a loop variable may need restructuring.',
    tags: ['eslint', 'style'],
    instances: 2,
    files: (n) =>
      ts(
        n,
        `export function ${n.fn}(): number {\n  var ${n.value} = 2;\n  return ${n.value};\n}\n`,
      ),
  },
  {
    id: 'eslint-no-empty',
    tool: 'eslint',
    title: 'no-empty: Empty block statement, typically an empty catch that swallows errors',
    body: 'Handle the error (log it, rethrow with a cause, or return a fallback) or leave a comment explaining why it is ignored.',
    tags: ['eslint', 'errors'],
    instances: 3,
    files: (n) =>
      ts(
        n,
        `export function ${n.fn}(text: string): unknown {\n  try {\n    return JSON.parse(text);\n  } catch {\n  }\n  return undefined;\n}\n`,
      ),
  },
  {
    id: 'eslint-eqeqeq',
    tool: 'eslint',
    title: "eqeqeq: Expected '===' and instead saw '==' (loose equality)",
    body: 'Use === and !==; when null and undefined should both match, compare with == null only if the config allows it, or check both explicitly.',
    tags: ['eslint', 'style', 'equality'],
    instances: 3,
    files: (n) =>
      ts(n, `export function ${n.fn}(count: number): boolean {\n  return count == 0;\n}\n`),
  },
  {
    id: 'eslint-no-require-imports',
    tool: 'eslint',
    title: '@typescript-eslint/no-require-imports: A require() style import is forbidden',
    body: 'Use an ES import (import fs from "node:fs"); for JSON use import with { type: "json" } or readFileSync, and createRequire only as a last resort.',
    tags: ['eslint', 'typescript', 'esm', 'imports'],
    instances: 3,
    files: (n) =>
      ts(
        n,
        `const ${n.value}Fs = require('node:fs');\nexport const exists = ${n.value}Fs.existsSync;\n`,
      ),
  },
  {
    id: 'eslint-ban-ts-comment',
    tool: 'eslint',
    title: '@typescript-eslint/ban-ts-comment: Use @ts-expect-error instead of @ts-ignore',
    body: 'Fix the type error instead of silencing it; if it must stay, use // @ts-expect-error with a description so it fails once the error is gone.',
    tags: ['eslint', 'typescript'],
    instances: 2,
    files: (n) => ts(n, `// @ts-ignore\nexport const ${n.value}: number = 'x';\n`),
  },
  {
    id: 'eslint-no-case-declarations',
    tool: 'eslint',
    title: 'no-case-declarations: Unexpected lexical declaration in case block',
    body: 'Wrap the case body in braces (case 1: { const x = ...; break; }) so the const or let is scoped to that case.',
    tags: ['eslint', 'switch'],
    instances: 2,
    files: (n) =>
      ts(
        n,
        `export function ${n.fn}(kind: number): number {\n  switch (kind) {\n    case 1:\n      const ${n.value} = kind * 2;\n      return ${n.value};\n    default:\n      return 0;\n  }\n}\n`,
      ),
  },
  {
    id: 'eslint-parsing-error',
    tool: 'eslint',
    title: 'ESLint Parsing error: the file does not parse (unexpected token, unterminated string)',
    body: 'Fix the syntax at the reported position first (an unclosed bracket or string, a stray character); no rule runs on a file that does not parse.',
    tags: ['eslint', 'syntax'],
    instances: 2,
    files: (n) => ts(n, `export const ${n.value} = {\n  id: 'a1',\n`),
  },
];
