/**
 * The GitHub repository a git URL names, so that a route on github.com needs no separate
 * `codeHost`: `https://github.com/acme/shop.git`, `git@github.com:acme/shop.git`,
 * `ssh://git@github.com/acme/shop`.
 */
import type { CodeHostRepo } from '../../ports.js';

const GITHUB_URL =
  /^(?:https:\/\/(?:[^@/]+@)?github\.com\/|ssh:\/\/git@github\.com\/|git@github\.com:)([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?\/?$/;

/** @example gitHubRepoOf('git@github.com:acme/shop.git') // { owner: 'acme', name: 'shop' } */
export function gitHubRepoOf(url: string): CodeHostRepo | undefined {
  const match = GITHUB_URL.exec(url);
  return match ? { owner: match[1]!, name: match[2]! } : undefined;
}
