import { describe, expect, it } from 'vitest';
import { gitHubRepoOf } from '../../lambdas/core/projects/github-repo.js';

describe('the GitHub repository of a git URL', () => {
  it.each([
    ['https://github.com/acme/shop.git', 'acme', 'shop'],
    ['https://github.com/acme/shop', 'acme', 'shop'],
    ['https://x-access-token@github.com/acme/shop.git', 'acme', 'shop'],
    ['git@github.com:acme/shop.git', 'acme', 'shop'],
    ['ssh://git@github.com/acme/my.repo.git', 'acme', 'my.repo'],
  ])('%s is %s/%s', (url, owner, name) => {
    expect(gitHubRepoOf(url)).toEqual({ owner, name });
  });

  it.each([
    'https://gitlab.com/acme/shop.git',
    'https://github.com/acme',
    'https://github.com/acme/shop/tree/main',
    '/home/me/shop',
  ])('%s names none', (url) => {
    expect(gitHubRepoOf(url)).toBeUndefined();
  });
});
