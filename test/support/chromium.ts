/**
 * Debian's Chromium (`.ci/run` installs it) driven by playwright-core, headless, to test a
 * page as a person sees it. The network is closed where tests run: the flags keep Chromium
 * from reaching out on its own (updates, sync, field trials), which would fail noisily.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT } from '../../lib/paths.js';

export const CHROMIUM_PATH = process.env.RALPH_TEST_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    timeout: 30_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where screenshots are kept as test artefacts (git-ignored): `test-results/<name>`. */
export function artefactPath(name: string): string {
  const dir = join(REPO_ROOT, 'test-results');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
