import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('ralph run --help', () => {
  it('names the default of every option', async () => {
    // Act
    const help = await runCli(['run', '--help']);

    // Assess: folded lines joined, so each option reads as one sentence.
    const text = help.stdout.replace(/\n {10,}/g, ' ');
    const options = text.match(/^ {2}(-\w, )?--[\w-]+.*$/gm) ?? [];
    expect(help.exitCode).toBe(0);
    expect(options.length).toBeGreaterThan(8);
    for (const option of options)
      if (!option.includes('--help')) expect(option).toMatch(/\(default: |\(env: /);
    expect(text).toContain("(default: the config's limits.maxIterations, else 10)");
    expect(text).toContain("(default: the config's; none: nothing is verified)");
  });
});
