/**
 * Errors that say the agent lacked context rather than skill: a module, name, file or
 * command it assumed exists, or a question it asked instead of looking.
 */
export interface MissingContext {
  subject: string | null;
  evidence: string;
}

/** Each pattern's first group, when present, is the missing thing. */
const PATTERNS: readonly RegExp[] = [
  /Cannot find module ['"]([^'"]+)['"]/,
  /Module not found: (?:Error: )?Can't resolve ['"]([^'"]+)['"]/,
  /ModuleNotFoundError: No module named ['"]([^'"]+)['"]/,
  /cannot find package "([^"]+)"/,
  /ReferenceError: ([\w$.]+) is not defined/,
  /\b(?:NameError: name )?['"`]?([\w$.]+)['"`]? is not defined/,
  /^(?:[\w.-]+: )?([^\s:]+): No such file or directory/,
  /No such file or directory(?:[:,]\s*(?:open |stat |lstat |scandir )?['"]([^'"]+)['"])?/i,
  /\bENOENT\b(?:.*?['"]([^'"]+)['"])?/,
  /(?:^|:\s)([\w.-]+): command not found/,
  /\b(?:could|can) you (?:please )?(?:clarify|confirm|provide|tell me|specify|share)\b()/i,
  /\bI need more (?:information|context|details)\b()/i,
  /\bplease (?:clarify|provide|confirm|specify)\b()/i,
];

/**
 * The first missing-context error among `lines`, or undefined.
 *
 * @example
 * missingContextIn(["Error: Cannot find module './db/client.js'"]) // { subject: './db/client.js', ... }
 */
export function missingContextIn(lines: readonly string[]): MissingContext | undefined {
  for (const line of lines) {
    for (const pattern of PATTERNS) {
      const m = pattern.exec(line);
      if (m) return { subject: m[1] || null, evidence: line.trim() };
    }
  }
  return undefined;
}
