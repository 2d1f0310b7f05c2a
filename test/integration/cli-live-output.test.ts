import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followLiveOutput, type LiveOutput } from '../../bin/cli/live/live-output.js';

const RUN = 'r20250101-120000-abc123';
const said = (text: string) => `${JSON.stringify({ type: 'text', stream: 'stdout', text })}\n`;

describe('Class: LiveOutput', () => {
  let dataDir: string;
  let live: LiveOutput | undefined;
  const written: string[] = [];
  const file = (iteration: number) => join(dataDir, 'live', RUN, `${iteration}.jsonl`);

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-live-output-'));
    await mkdir(join(dataDir, 'live', RUN), { recursive: true });
    written.length = 0;
  });
  afterEach(async () => {
    await live?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const follow = (options: { fromFirstAllowed?: boolean; colour?: boolean } = {}) =>
    followLiveOutput(dataDir, RUN, {
      write: (line) => written.push(line),
      pollMs: 10_000,
      colour: false,
      ...options,
    });

  it('prints the iterations up to the one drained, in order and indented', async () => {
    // Prepare
    live = follow();
    await writeFile(file(1), said('first'));
    await writeFile(file(2), said('second'));

    // Act
    live.allow(1);
    await live.drain(1);
    const afterFirst = [...written];
    await live.drain(2);

    // Assess
    expect(afterFirst).toEqual(['    first']);
    expect(written).toEqual(['    first', '    second']);
  });

  it('leaves out what earlier iterations left when following from the first allowed one', async () => {
    live = follow({ fromFirstAllowed: true });
    await writeFile(file(3), said('left by an earlier segment'));
    await writeFile(file(4), said('this segment'));

    live.allow(4);
    await live.stop();

    expect(written).toEqual(['    this segment']);
  });

  it('makes control bytes visible and drops colours when there is no colour', async () => {
    live = follow();
    await writeFile(file(1), said('\x1b[31mred\x1b[0m \x1b]0;title\x07'));

    await live.drain(1);

    expect(written).toEqual(['    red \\x1b]0;title\\x07']);
  });
});
