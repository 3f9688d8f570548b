/** `confbus encrypt|decrypt` as an operator runs them: real child processes, text as argument or on stdin. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runConfbusCommand as runConfbus } from '@confbus/testkit/confbus-processes';
import { makeTempDir } from '@confbus/testkit/temp-dir';

describe('confbus encrypt / decrypt', () => {
  const temps: Array<{ remove: () => Promise<void> }> = [];
  after(() => Promise.all(temps.map((temp) => temp.remove())));

  it("decrypts Spring's vector and round-trips text from stdin (one trailing newline dropped)", async () => {
    const vector = await runConfbus([
      'decrypt',
      '--encrypt.key=pie',
      '{cipher}bf29452295df354e6153c5b31b03ef23c70e55fba24299aa85c63438f1c43c95',
    ]);
    assert.deepEqual(vector, { code: 0, stdout: 'test\n', stderr: '' });

    const encrypted = await runConfbus(['encrypt'], { input: 'päss word\n', env: { ENCRYPT_KEY: 'k3y' } });
    assert.equal(encrypted.code, 0, encrypted.stderr);
    assert.match(encrypted.stdout, /^[0-9a-f]{64}\n$/);
    const decrypted = await runConfbus(['decrypt', '--encrypt.key=k3y'], { input: encrypted.stdout });
    assert.equal(decrypted.stdout, 'päss word\n');
  });

  it('reads encrypt.* from the settings file, keeping {key:...} prefixes', async () => {
    const temp = await makeTempDir('confbus-cli-');
    temps.push(temp);
    await writeFile(
      join(temp.path, 'application.yml'),
      'encrypt:\n  key: from-file\n  salt: 4567890a12345678\nspring:\n  cloud:\n    config:\n      server:\n        git:\n          uri: ignored\n',
    );
    const encrypted = await runConfbus(['encrypt', '{key:k1}value'], { cwd: temp.path });
    assert.equal(encrypted.code, 0, encrypted.stderr);
    assert.match(encrypted.stdout, /^\{key:k1\}[0-9a-f]+\n$/);
    const decrypted = await runConfbus(['decrypt', `{cipher}${encrypted.stdout.trim()}`], { cwd: temp.path });
    assert.equal(decrypted.stdout, 'value\n');
    const otherSalt = await runConfbus(['decrypt', '--encrypt.salt=deadbeef', encrypted.stdout.trim()], {
      cwd: temp.path,
    });
    assert.equal(otherSalt.code, 1);
  });

  it('warns about an environment variable that nearly spells one of its settings, and still answers', async () => {
    const run = await runConfbus(['encrypt', '--encrypt.key=k3y', 'text'], {
      env: { SPRING_CONFIG_LOCATON: 'elsewhere.yml' },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^[0-9a-f]{64}\n$/);
    assert.equal(
      run.stderr,
      'confbus: warning: Environment variable SPRING_CONFIG_LOCATON names no confbus setting (ignored). Did you mean SPRING_CONFIG_LOCATION (spring.config.location)?\n',
    );
  });

  it('fails with a message naming what is wrong, never echoing a secret', async () => {
    const wrongKey = await runConfbus([
      'decrypt',
      '--encrypt.key=nope',
      'bf29452295df354e6153c5b31b03ef23c70e55fba24299aa85c63438f1c43c95',
    ]);
    assert.equal(wrongKey.code, 1);
    assert.equal(wrongKey.stdout, '');
    assert.match(wrongKey.stderr, /^confbus: Text not encrypted with this key/);
    assert.ok(!wrongKey.stderr.includes('nope') && !wrongKey.stderr.includes('bf2945'));

    const noKey = await runConfbus(['encrypt', 'secret value']);
    assert.equal(noKey.code, 1);
    assert.match(noKey.stderr, /set encrypt\.key/);
    assert.ok(!noKey.stderr.includes('secret value'));

    const typo = await runConfbus(['encrypt', '--encrypt.kye=x', 'y']);
    assert.equal(typo.code, 1);
    assert.match(typo.stderr, /Unknown setting 'encrypt\.kye'/);

    const missingStore = await runConfbus([
      'encrypt',
      '--encrypt.key-store.location=classpath:server.jks',
      '--encrypt.key-store.password=x',
      '--encrypt.key-store.alias=a',
      'y',
    ]);
    assert.equal(missingStore.code, 1);
    assert.match(missingStore.stderr, /there is no class path here/);
  });
});
