// Which source the default repository is: a Git uri, the native folders, or the sample only when asked for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveServerSettings } from '../src/index.js';
import { repositorySourceOf } from '../src/settings/repository-source.js';

const sourceOf = (args: string[], env: Record<string, string> = {}) =>
  repositorySourceOf(resolveServerSettings({ args, env }));

describe('repositorySourceOf', () => {
  it('takes the Git uri, the native profile, or the sample when it is asked for', () => {
    assert.deepEqual(sourceOf(['--spring.cloud.config.server.git.uri=/srv/config']), {
      kind: 'git',
      uri: '/srv/config',
    });
    assert.deepEqual(sourceOf(['--spring.profiles.active=native']), { kind: 'native' });
    assert.deepEqual(sourceOf([], { CONFBUS_SERVER_SAMPLE_REPOSITORY: 'true' }), { kind: 'sample' });
  });

  it('refuses none, naming every setting that would do (and an ignored variable that nearly did)', () => {
    assert.throws(() => sourceOf([], { SPRING_CLOUD_CONFIG_SERVER_GIT_URL: '/srv/config' }), {
      name: 'SettingsError',
      code: 'CONFBUS_BAD_SETTING',
      message:
        /^No configuration repository: set spring\.cloud\.config\.server\.git\.uri .*spring\.profiles\.active=native .*confbus\.server\.sample-repository=true .* Did you mean SPRING_CLOUD_CONFIG_SERVER_GIT_URI/,
    });
  });

  it('refuses the sample together with another source', () => {
    assert.throws(
      () => sourceOf(['--confbus.server.sample-repository=true', '--spring.profiles.active=native']),
      /sample-repository=true serves the embedded sample repository, and spring\.profiles\.active=native names another source/,
    );
  });
});
