import { describe, expect, it } from 'vitest';
import { dataDirFlag, defaultDataDir } from '../../bin/cli/data-dir.js';

describe('defaultDataDir', () => {
  it('is ralph-cloud in $XDG_STATE_HOME when that is an absolute path', () => {
    expect(defaultDataDir({ XDG_STATE_HOME: '/srv/state' }, 'linux', '/home/ada')).toBe(
      '/srv/state/ralph-cloud',
    );
  });

  it('is ~/.local/state/ralph-cloud without XDG_STATE_HOME, or with a relative one', () => {
    expect(defaultDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.local/state/ralph-cloud');
    expect(defaultDataDir({ XDG_STATE_HOME: 'state' }, 'linux', '/home/ada')).toBe(
      '/home/ada/.local/state/ralph-cloud',
    );
  });

  it('is ~/Library/Application Support/ralph-cloud on macOS', () => {
    expect(defaultDataDir({}, 'darwin', '/Users/ada')).toBe(
      '/Users/ada/Library/Application Support/ralph-cloud',
    );
  });
});

describe('dataDirFlag', () => {
  it('repeats a data dir the person gave, as one shell word', () => {
    expect(dataDirFlag({ dataDir: '/tmp/data', dataDirGiven: true })).toBe(' --data-dir /tmp/data');
    expect(dataDirFlag({ dataDir: "/tmp/bob's data", dataDirGiven: true })).toBe(
      ` --data-dir '/tmp/bob'\\''s data'`,
    );
  });

  it('says nothing for the default, which the next command gets as well', () => {
    expect(
      dataDirFlag({ dataDir: '/home/ada/.local/state/ralph-cloud', dataDirGiven: false }),
    ).toBe('');
  });
});
