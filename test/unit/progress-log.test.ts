import { describe, expect, it } from 'vitest';
import {
  archiveProgress,
  progressArchiveReason,
  addCodebasePatterns,
  appendProgressEntry,
  codebasePatterns,
  newProgressLog,
  recentEntries,
} from '../../lambdas/core/ralph/progress-log.js';

const STARTED = new Date('2025-01-10T09:00:00.000Z');
const AT = new Date('2025-01-10T14:30:45.000Z');

/** A log as Ralph's agents write it by hand, patterns at the top and three entries. */
const RALPH_FILE = `# Ralph Progress Log
Started: Fri Jan 10 09:00:00 UTC 2025
---

## Codebase Patterns
- Use \`sql<number>\` template for aggregations
- Always use \`IF NOT EXISTS\` for migrations

## 2025-01-10 10:00 - US-001
- Added the priority column
- Files changed: db/schema.ts
- **Learnings for future iterations:**
  - Run db:generate after a schema change
---

## 2025-01-10 11:00 - US-002
- Priority badge on task cards
- Files changed: ui/badge.tsx, ui/card.tsx
---
## 2025-01-10 12:00 - US-003
- Priority selector
- Files changed: ui/select.tsx
---
`;

describe('Module: progress-log', () => {
  describe('Function: newProgressLog', () => {
    it('writes the header Ralph writes', () => {
      // Act
      const text = newProgressLog(STARTED);

      // Assess
      expect(text).toBe('# Ralph Progress Log\nStarted: 2025-01-10T09:00:00.000Z\n---\n');
    });
  });

  describe('Function: appendProgressEntry', () => {
    it('appends an entry in Ralph format after the header', () => {
      // Act
      const text = appendProgressEntry(newProgressLog(STARTED), {
        at: AT,
        storyId: 'US-001',
        summary: 'Added the priority column',
        filesChanged: ['db/schema.ts', 'db/migrations/002.sql'],
        learnings: ['Run `npm run db:generate` after a schema change', '- already a bullet'],
      });

      // Assess
      expect(text).toBe(
        [
          '# Ralph Progress Log',
          'Started: 2025-01-10T09:00:00.000Z',
          '---',
          '',
          '## 2025-01-10 14:30 - US-001',
          '- Added the priority column',
          '- Files changed: db/schema.ts, db/migrations/002.sql',
          '- **Learnings for future iterations:**',
          '  - Run `npm run db:generate` after a schema change',
          '  - already a bullet',
          '---',
          '',
        ].join('\n'),
      );
    });

    it('keeps every line on one bullet and leaves out empty learnings', () => {
      // Act
      const text = appendProgressEntry('', {
        at: AT,
        storyId: 'US-002',
        summary: 'First line\nsecond line',
        filesChanged: [],
        learnings: ['multi\nline learning', '   '],
      });

      // Assess
      expect(text).toBe(
        [
          '## 2025-01-10 14:30 - US-002',
          '- First line',
          '- second line',
          '- Files changed: (none)',
          '- **Learnings for future iterations:**',
          '  - multi line learning',
          '---',
          '',
        ].join('\n'),
      );
    });

    it('keeps CRLF line endings of a file written on Windows', () => {
      // Prepare
      const crlf = RALPH_FILE.replace(/\n/g, '\r\n');

      // Act
      const text = appendProgressEntry(crlf, {
        at: AT,
        storyId: 'US-004',
        summary: 'Done',
        filesChanged: ['a.ts'],
        learnings: [],
      });

      // Assess
      expect(text.startsWith(crlf.trimEnd())).toBe(true);
      expect(text.replace(/\r\n/g, '')).not.toContain('\n');
      expect(recentEntries(text, 1)).toEqual([
        '## 2025-01-10 14:30 - US-004\n- Done\n- Files changed: a.ts',
      ]);
    });

    it('appends to a file that does not end with a newline', () => {
      // Act
      const text = appendProgressEntry('## 2025-01-01 00:00 - US-000\n- old\n---', {
        at: AT,
        storyId: 'US-001',
        summary: 'new',
        filesChanged: [],
        learnings: [],
      });

      // Assess
      expect(recentEntries(text, 5)).toEqual([
        '## 2025-01-01 00:00 - US-000\n- old',
        '## 2025-01-10 14:30 - US-001\n- new\n- Files changed: (none)',
      ]);
    });
  });

  describe('Function: codebasePatterns', () => {
    it('reads the bullets of the section', () => {
      // Act
      const patterns = codebasePatterns(RALPH_FILE);

      // Assess
      expect(patterns).toEqual([
        'Use `sql<number>` template for aggregations',
        'Always use `IF NOT EXISTS` for migrations',
      ]);
    });

    it('is tolerant: any heading case, `*` bullets, nested bullets, CRLF, a closing rule', () => {
      // Prepare
      const text =
        '## codebase patterns:\r\n* One\r\n  - nested\r\n\r\n1. numbered\r\n---\r\n- not a pattern\r\n';

      // Act
      const patterns = codebasePatterns(text);

      // Assess
      expect(patterns).toEqual(['One', 'nested', 'numbered']);
    });

    it('is empty without the section', () => {
      expect(codebasePatterns(newProgressLog(STARTED))).toEqual([]);
      expect(codebasePatterns('')).toEqual([]);
    });
  });

  describe('Function: addCodebasePatterns', () => {
    it('creates the section right after the header, before any entry', () => {
      // Prepare
      const text = appendProgressEntry(newProgressLog(STARTED), {
        at: AT,
        storyId: 'US-001',
        summary: 'Done',
        filesChanged: [],
        learnings: [],
      });

      // Act
      const updated = addCodebasePatterns(text, ['Use the repository pattern']);

      // Assess
      expect(updated).toBe(
        [
          '# Ralph Progress Log',
          'Started: 2025-01-10T09:00:00.000Z',
          '---',
          '',
          '## Codebase Patterns',
          '- Use the repository pattern',
          '',
          '## 2025-01-10 14:30 - US-001',
          '- Done',
          '- Files changed: (none)',
          '---',
          '',
        ].join('\n'),
      );
      expect(recentEntries(updated, 5)).toHaveLength(1);
    });

    it('appends to an existing section and skips exact duplicates', () => {
      // Act
      const updated = addCodebasePatterns(RALPH_FILE, [
        'Always use `IF NOT EXISTS` for migrations',
        'Export types from actions.ts',
        '- Export types from actions.ts',
      ]);

      // Assess
      expect(codebasePatterns(updated)).toEqual([
        'Use `sql<number>` template for aggregations',
        'Always use `IF NOT EXISTS` for migrations',
        'Export types from actions.ts',
      ]);
      expect(updated).toContain(
        '- Always use `IF NOT EXISTS` for migrations\n- Export types from actions.ts\n\n## 2025-01-10 10:00 - US-001',
      );
      expect(recentEntries(updated, 10)).toEqual(recentEntries(RALPH_FILE, 10));
    });

    it('returns the text unchanged when nothing is new', () => {
      expect(
        addCodebasePatterns(RALPH_FILE, ['Always use `IF NOT EXISTS` for migrations', ' ']),
      ).toBe(RALPH_FILE);
    });

    it('puts the section at the top of a file without a header', () => {
      // Prepare
      const text = '## 2025-01-10 10:00 - US-001\n- Done\n---\n';

      // Act
      const updated = addCodebasePatterns(text, ['A pattern']);

      // Assess
      expect(updated).toBe(`## Codebase Patterns\n- A pattern\n\n${text}`);
      expect(addCodebasePatterns('', ['Only'])).toBe('## Codebase Patterns\n- Only\n');
    });

    it('keeps CRLF line endings', () => {
      // Prepare
      const text = newProgressLog(STARTED).replace(/\n/g, '\r\n');

      // Act
      const updated = addCodebasePatterns(text, ['A pattern']);

      // Assess
      expect(updated).toBe(
        '# Ralph Progress Log\r\nStarted: 2025-01-10T09:00:00.000Z\r\n---\r\n\r\n## Codebase Patterns\r\n- A pattern\r\n',
      );
    });
  });

  describe('Function: recentEntries', () => {
    it('returns the last n entries, oldest first, without the patterns section', () => {
      // Act
      const entries = recentEntries(RALPH_FILE, 2);

      // Assess
      expect(entries).toEqual([
        '## 2025-01-10 11:00 - US-002\n- Priority badge on task cards\n- Files changed: ui/badge.tsx, ui/card.tsx',
        '## 2025-01-10 12:00 - US-003\n- Priority selector\n- Files changed: ui/select.tsx',
      ]);
    });

    it('returns every entry when there are fewer than n, and none for n = 0', () => {
      expect(recentEntries(RALPH_FILE, 10)).toHaveLength(3);
      expect(recentEntries(RALPH_FILE, 0)).toEqual([]);
      expect(recentEntries(newProgressLog(STARTED), 3)).toEqual([]);
    });

    it('does not split an entry at a heading inside a code fence', () => {
      // Prepare
      const text =
        '## 2025-01-10 10:00 - US-001\n- Added docs:\n```md\n## Not an entry\n---\n```\n---\n';

      // Act
      const entries = recentEntries(text, 5);

      // Assess
      expect(entries).toEqual([
        '## 2025-01-10 10:00 - US-001\n- Added docs:\n```md\n## Not an entry\n---\n```',
      ]);
    });

    it('reads an entry that has no closing rule', () => {
      expect(
        recentEntries(
          '## 2025-01-10 10:00 - US-001\n- Done\n\n## 2025-01-10 11:00 - US-002\n- More\n',
          5,
        ),
      ).toEqual(['## 2025-01-10 10:00 - US-001\n- Done', '## 2025-01-10 11:00 - US-002\n- More']);
    });
  });
});

describe('Function: archiveProgress', () => {
  const log = [
    '# Ralph Progress Log',
    'Started: 2025-01-10T09:00:00.000Z',
    '---',
    '',
    '## Codebase Patterns',
    '- Use `sql<number>` for aggregations',
    '',
    '## 2025-01-10 14:30 - US-001',
    '- Added the priority column',
    '---',
    '## 2025-01-10 15:30 - US-002',
    '- Added the filter',
    '```',
    '## not a heading inside a fence',
    '```',
    '---',
    '## 2025-01-10 16:30 - US-003',
    '- Added the summary',
    '---',
    '',
  ].join('\n');

  it('moves all but the last entries out, keeping header and patterns in place', () => {
    // Act
    const { kept, archived, moved } = archiveProgress(log, 1);

    // Assess
    expect(moved).toBe(2);
    expect(kept).toBe(
      [
        '# Ralph Progress Log',
        'Started: 2025-01-10T09:00:00.000Z',
        '---',
        '',
        '## Codebase Patterns',
        '- Use `sql<number>` for aggregations',
        '',
        '## 2025-01-10 16:30 - US-003',
        '- Added the summary',
        '---',
        '',
      ].join('\n'),
    );
    expect(archived).toContain('## 2025-01-10 14:30 - US-001');
    expect(archived).toContain('## not a heading inside a fence');
    expect(archived).not.toContain('US-003');
    expect(codebasePatterns(kept)).toEqual(['Use `sql<number>` for aggregations']);
  });

  it('moves nothing when there are no more entries than it keeps', () => {
    expect(archiveProgress(log, 3)).toEqual({ kept: log, archived: '', moved: 0 });
    expect(archiveProgress(log, 2).moved).toBe(1);
  });
});

describe('Function: progressArchiveReason', () => {
  const settings = { everyIterations: 10, maxProgressBytes: 1000 };

  it.each([
    [10, 0, 'periodic'],
    [20, 5000, 'periodic'],
    [9, 1000, undefined],
    [9, 1001, 'size'],
    [11, 999, undefined],
  ] as const)('iteration %i, %i bytes: %s', (iteration, bytes, reason) => {
    expect(progressArchiveReason({ iteration, bytes }, settings)).toBe(reason);
  });
});
