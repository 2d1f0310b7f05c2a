import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { repoRefOf } from '../../lambdas/core/runs/repo-ref.js';
import { parseStartRun } from '../../lambdas/core/runs/start-run.js';
import { makePrd } from '../support/git-repo.js';

describe('Function: repoRefOf', () => {
  it('takes remote git URLs everywhere', () => {
    for (const url of [
      'https://github.com/acme/app.git',
      'ssh://git@github.com/acme/app.git',
      'git@github.com:acme/app.git',
    ])
      expect(repoRefOf(url, { allowLocal: false })).toEqual({ kind: 'git', url });
  });

  it('refuses a local path on a deployment, saying to push it and pass its URL', () => {
    expect(() => repoRefOf('/home/me/app', { allowLocal: false })).toThrow(
      /repo: .* must be pushed first and its git URL passed/,
    );
    expect(() => repoRefOf('file:///home/me/app', { allowLocal: false })).toThrow(
      InvalidInputError,
    );
  });

  it('takes an absolute path or a machine-local URL on a local server, never a relative path', () => {
    expect(repoRefOf('/home/me/app', { allowLocal: true })).toEqual({
      kind: 'local',
      path: '/home/me/app',
    });
    expect(repoRefOf('http://127.0.0.1:9418/app.git', { allowLocal: true })).toEqual({
      kind: 'git',
      url: 'http://127.0.0.1:9418/app.git',
    });
    expect(() => repoRefOf('app', { allowLocal: true })).toThrow(
      /neither a git URL nor an absolute path/,
    );
  });
});

describe('Function: parseStartRun, prdPath', () => {
  const body = (repo: string, prdPath?: string) => ({
    repo,
    prd: makePrd(1),
    ...(prdPath === undefined ? {} : { prdPath }),
  });

  it('keeps prd.json at the repository root by default, or where the caller says', () => {
    expect(
      parseStartRun(body('https://github.com/a/b.git'), { allowLocalRepos: false }).prdPath,
    ).toBe('prd.json');
    expect(
      parseStartRun(body('https://github.com/a/b.git', 'scripts/ralph/prd.json'), {
        allowLocalRepos: false,
      }).prdPath,
    ).toBe('scripts/ralph/prd.json');
  });

  it('refuses a prdPath outside a clone, and takes one beside a local working copy', () => {
    expect(() =>
      parseStartRun(body('https://github.com/a/b.git', '../prd.json'), { allowLocalRepos: false }),
    ).toThrow(/prdPath: "\.\.\/prd\.json" is not a path inside the repository/);
    expect(
      parseStartRun(body('/home/me/app', '/home/me/plans/prd.json'), { allowLocalRepos: true })
        .prdPath,
    ).toBe('/home/me/plans/prd.json');
  });
});
