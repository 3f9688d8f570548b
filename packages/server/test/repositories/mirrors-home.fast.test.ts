// Where mirrors live without a basedir: systemd's cache directory, the XDG cache, the home cache, else the temp
// folder; never the working directory.
import assert from 'node:assert/strict';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultMirrorsHome } from '../../src/repositories/mirrors-home.js';

describe('defaultMirrorsHome', () => {
  it('prefers systemd CacheDirectory, then XDG_CACHE_HOME, then ~/.cache', () => {
    assert.equal(
      defaultMirrorsHome({ CACHE_DIRECTORY: '/var/cache/confbus:/var/cache/other', XDG_CACHE_HOME: '/x' }),
      '/var/cache/confbus/mirrors',
    );
    assert.equal(defaultMirrorsHome({ XDG_CACHE_HOME: '/srv/cache' }), '/srv/cache/confbus/mirrors');
    // Relative values are ignored, as the XDG specification says.
    const fallback = defaultMirrorsHome({ XDG_CACHE_HOME: 'relative', CACHE_DIRECTORY: 'relative' });
    assert.ok(
      fallback === join(homedir(), '.cache', 'confbus', 'mirrors') ||
        fallback.startsWith(join(tmpdir(), 'confbus-')),
      fallback,
    );
  });
});
