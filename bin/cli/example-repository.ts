/**
 * What the bundled examples share: a fresh copy of an example's template as a git
 * repository of its own under the data dir, one commit on `main`.
 */
import { cp, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';

const GIT_IDENTITY = [
  '-c',
  'user.name=ralph-cloud example',
  '-c',
  'user.email=example@ralph-cloud.local',
];

/** The template's files in `repo` (made if missing). */
export async function copyTemplate(template: string, repo: string): Promise<void> {
  await mkdir(repo, { recursive: true });
  await cp(template, repo, { recursive: true });
  // npm leaves every `.gitignore` out of a package: a template's is `gitignore`.
  await rename(join(repo, 'gitignore'), join(repo, '.gitignore'));
}

/** `repo` as a git repository on `main`, everything in it committed with `message`. */
export async function commitAll(repo: string, message: string): Promise<void> {
  await execa('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: repo });
  await execa('git', ['add', '-A'], { cwd: repo });
  await execa('git', [...GIT_IDENTITY, 'commit', '--quiet', '-m', message], { cwd: repo });
}

/** A timestamp for an example's directory and names: `20260302-090000`. */
export function exampleStamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}
