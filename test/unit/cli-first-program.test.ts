import { describe, expect, it } from 'vitest';
import { firstProgram } from '../../bin/cli/preflight.js';

describe('Function: firstProgram', () => {
  it.each([
    ['npm test', 'npm'],
    ['  pytest -q', 'pytest'],
    ['CI=1 FOO=bar ./scripts/check.sh --all', './scripts/check.sh'],
    ['claude -p --output-format stream-json', 'claude'],
    ['cat > /dev/null; echo done > "$RALPH_STORY_ID.txt"', 'cat'],
    ['test -f US-001.txt', undefined],
    ['cd app && npm test', undefined],
    ['(cd app && make)', undefined],
    ['"$HOME/bin/agent"', undefined],
    ['', undefined],
  ])('%j starts %j', (command, program) => {
    expect(firstProgram(command)).toBe(program);
  });
});
