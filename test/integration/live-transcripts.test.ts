import { appendFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLiveTranscripts } from '../../local/live-transcripts/file-writer.js';
import {
  LIVE_LINE_MAX_CHARS,
  LiveTranscriptReader,
} from '../../local/live-transcripts/file-reader.js';

const RUN = 'r20250101-120000-abc123';

describe('Live transcripts under the data dir', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-live-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const texts = (lines: { line: string }[]) => lines.map(({ line }) => line);

  describe('Class: FileLiveTranscripts', () => {
    it('writes lines a reader sees while the writer is still open', async () => {
      // Prepare
      const writer = await new FileLiveTranscripts(dataDir).open(RUN, 1);
      const reader = new LiveTranscriptReader(dataDir, RUN);

      // Act
      writer.write('{"type":"text","stream":"stdout","text":"one"}');
      let seen: string[] = [];
      for (let tries = 0; tries < 50 && seen.length === 0; tries += 1) {
        seen = texts(await reader.read(1));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      writer.write('two');
      await writer.close();

      // Assess
      expect(seen).toEqual(['{"type":"text","stream":"stdout","text":"one"}']);
      expect(texts(await reader.read(1))).toEqual(['two']);
    });

    it('stops at its bound with one note, and keeps only the latest iteration of a run', async () => {
      const live = new FileLiveTranscripts(dataDir, 100);
      const first = await live.open(RUN, 1);
      await first.close();

      const second = await live.open(RUN, 2);
      for (let index = 0; index < 10; index += 1) second.write(`line ${index} ${'x'.repeat(20)}`);
      await second.close();

      const reader = new LiveTranscriptReader(dataDir, RUN);
      const lines = await reader.read(2);
      expect(lines.map(({ iteration }) => iteration)).not.toContain(1);
      expect(texts(lines).slice(0, 3)).toEqual([
        `line 0 ${'x'.repeat(20)}`,
        `line 1 ${'x'.repeat(20)}`,
        `line 2 ${'x'.repeat(20)}`,
      ]);
      expect(texts(lines)).toHaveLength(4);
      expect(texts(lines)[3]).toContain('live output stops here');
      expect(await readdir(join(dataDir, 'live', RUN))).toEqual(['2.jsonl']);
    });

    it('writes nothing for a run id that is no safe folder name', async () => {
      const writer = await new FileLiveTranscripts(dataDir).open('../escape', 1);
      writer.write('x');
      await writer.close();

      expect(await readdir(dataDir)).toEqual([]);
      expect(await new LiveTranscriptReader(dataDir, '../escape').read(1)).toEqual([]);
    });
  });

  describe('Class: LiveTranscriptReader', () => {
    const file = (iteration: number) => join(dataDir, 'live', RUN, `${iteration}.jsonl`);
    beforeEach(async () => {
      await mkdir(join(dataDir, 'live', RUN), { recursive: true });
    });

    it('waits for the newline of a line still being written, even mid-character', async () => {
      const reader = new LiveTranscriptReader(dataDir, RUN);
      const euro = Buffer.from('€', 'utf8');

      await writeFile(file(1), Buffer.concat([Buffer.from('pri'), euro.subarray(0, 1)]));
      const before = texts(await reader.read(1));
      await appendFile(file(1), Buffer.concat([euro.subarray(1), Buffer.from('ce\nnext')]));
      const after = texts(await reader.read(1));

      expect(before).toEqual([]);
      expect(after).toEqual(['pri€ce']);
    });

    it('turns bytes that are not UTF-8 into U+FFFD and cuts a runaway line', async () => {
      const reader = new LiveTranscriptReader(dataDir, RUN);
      await writeFile(
        file(1),
        Buffer.concat([
          Buffer.from([0x62, 0xff, 0xfe, 0x0a]),
          Buffer.from(`${'y'.repeat(LIVE_LINE_MAX_CHARS + 10)}`),
        ]),
      );
      const first = texts(await reader.read(1));
      await appendFile(file(1), `${'y'.repeat(LIVE_LINE_MAX_CHARS)}\nafter\n`);
      const second = texts(await reader.read(1));

      expect(first).toEqual(['b\uFFFD\uFFFD', 'y'.repeat(LIVE_LINE_MAX_CHARS)]);
      expect(second).toEqual(['after']);
    });

    it('reads a file started afresh from its start, and only iterations up to the one asked', async () => {
      const reader = new LiveTranscriptReader(dataDir, RUN);
      await writeFile(file(1), 'old one\nold two\n');
      await writeFile(file(2), 'later\n');
      const first = await reader.read(1);
      await writeFile(file(1), 'new\n');
      const second = await reader.read(2);

      expect(first).toEqual([
        { iteration: 1, line: 'old one' },
        { iteration: 1, line: 'old two' },
      ]);
      expect(second).toEqual([
        { iteration: 1, line: 'new' },
        { iteration: 2, line: 'later' },
      ]);
    });
  });
});
