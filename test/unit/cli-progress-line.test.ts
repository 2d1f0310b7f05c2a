import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { progressLine } from '../../bin/cli/live/progress-line.js';

/** A stream that records what is written, as a terminal or not. */
const stream = (isTTY: boolean) => {
  const written: string[] = [];
  const sink = Object.assign(new PassThrough(), { isTTY });
  sink.on('data', (chunk: Buffer) => written.push(chunk.toString()));
  return { sink, written };
};

describe('Function: progressLine', () => {
  it('rewrites one line in place on a terminal, dim unless NO_COLOR', () => {
    const { sink, written } = stream(true);
    const colour = progressLine({}, sink, {});
    colour.update('round 1');
    const plain = progressLine({}, sink, { NO_COLOR: '1' });
    plain.update('round 2');
    plain.end();
    expect(written).toEqual([
      '\r\u001b[2mround 1\u001b[0m\u001b[K',
      '\rround 2\u001b[K',
      '\r\u001b[K',
    ]);
  });

  it('writes nothing when piped or quiet (--json)', () => {
    const piped = stream(false);
    progressLine({}, piped.sink, {}).update('x');
    const quiet = stream(true);
    progressLine({ quiet: true }, quiet.sink, {}).update('x');
    expect([...piped.written, ...quiet.written]).toEqual([]);
  });
});
