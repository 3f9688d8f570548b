// Credential handling helpers: nothing secret survives redaction, embedded credentials are split out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { basicAuthEnv } from '../../src/git/git-process.js';
import { displayUri, localGitUri, redactText, redactUri, splitCredentials } from '../../src/git/uri.js';

describe('uri helpers', () => {
  it('redactUri strips userinfo and leaves other uris alone', () => {
    assert.equal(redactUri('https://u:p@host/repo.git'), 'https://host/repo.git');
    assert.equal(redactUri('ssh://git@host/repo.git'), 'ssh://host/repo.git');
    assert.equal(redactUri('file:///srv/repo.git'), 'file:///srv/repo.git');
    assert.equal(redactUri('/srv/repo.git'), '/srv/repo.git');
    assert.equal(redactUri('git@github.com:org/repo.git'), 'git@github.com:org/repo.git');
  });

  it('redactText strips userinfo from every url and masks secrets', () => {
    const text = "fatal: unable to access 'https://u:pw@h/r.git/': 401 (pw)";
    assert.equal(redactText(text, ['pw']), "fatal: unable to access 'https://h/r.git/': 401 (***)");
  });

  it('splitCredentials moves embedded credentials out of http(s) uris; explicit options win', () => {
    assert.deepEqual(splitCredentials('https://u%40x:p%3Aw@h/r.git'), {
      uri: 'https://h/r.git',
      username: 'u@x',
      password: 'p:w',
    });
    assert.deepEqual(splitCredentials('https://u:p@h/r.git', 'me', 'mine'), {
      uri: 'https://h/r.git',
      username: 'me',
      password: 'mine',
    });
    assert.deepEqual(splitCredentials('ssh://git@h/r.git'), {
      uri: 'ssh://git@h/r.git',
      username: undefined,
      password: undefined,
    });
  });

  it('basicAuthEnv configures http.extraHeader through GIT_CONFIG_* (not argv)', () => {
    assert.deepEqual(basicAuthEnv(undefined, undefined), {});
    assert.deepEqual(basicAuthEnv('a', 'b'), {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from('a:b').toString('base64')}`,
    });
  });

  it('displayUri masks a password, and drops all user info when a secret placeholder went into the uri', () => {
    assert.equal(displayUri('https://ci:t0ken@h/r.git', false), 'https://ci:******@h/r.git');
    // `uri: https://${GIT_TOKEN}@h/r.git`: the token is the user name, which maskUriUserInfo would leave.
    assert.equal(displayUri('https://t0ken@h/r.git', true), 'https://h/r.git');
  });

  it("localGitUri: Spring's file: forms and relative paths become absolute paths under the working directory", () => {
    const cwd = '/srv/confbus';
    assert.equal(localGitUri('file:./config-repo', cwd), '/srv/confbus/config-repo');
    assert.equal(localGitUri('file:../repos/config', cwd), '/srv/repos/config');
    assert.equal(localGitUri('file:/var/config-repo', cwd), '/var/config-repo');
    assert.equal(localGitUri('FILE:/var/my%20repo', cwd), '/var/my repo');
    assert.equal(localGitUri('config-repo', cwd), '/srv/confbus/config-repo');
    assert.equal(localGitUri('./a/b:c', cwd), '/srv/confbus/a/b:c');
    // git's to read as written: a file URL, an absolute path, URLs and scp-like addresses.
    for (const uri of [
      'file:///var/config-repo',
      '/var/config-repo',
      'https://host/repo.git',
      'ssh://git@host/repo.git',
      'git@github.com:org/repo.git',
      'host:repo',
      '',
    ])
      assert.equal(localGitUri(uri, cwd), uri);
  });
});
