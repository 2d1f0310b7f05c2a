/**
 * A value as one POSIX shell word, for the commands a message suggests: as it is when it
 * holds only characters no shell reads specially, else in single quotes.
 *
 * @example
 * shellWord('/tmp/my data') // "'/tmp/my data'"
 */
export function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
