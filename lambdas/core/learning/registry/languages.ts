/**
 * The languages a change was written in, read from its files' extensions: registry tags
 * (the design's "language" tags) and a template's language.
 */

const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  rb: 'ruby',
  php: 'php',
  cs: 'csharp',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  sh: 'shell',
  sql: 'sql',
};

/**
 * The language of one file; `undefined` for anything not code (`README.md`, `package.json`).
 *
 * @example
 * languageOf('src/cart.test.ts'); // 'typescript'
 */
export function languageOf(path: string): string | undefined {
  const name = path.split(/[/\\]/).pop() ?? '';
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return LANGUAGE_BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/**
 * The distinct languages of some files, sorted.
 *
 * @example
 * languagesOf(['src/a.ts', 'tools/b.py', 'README.md']); // ['python', 'typescript']
 */
export function languagesOf(paths: readonly string[]): string[] {
  const languages = new Set<string>();
  for (const path of paths) {
    const language = languageOf(path);
    if (language) languages.add(language);
  }
  return [...languages].sort();
}
