// With server-side decryption on, the environment endpoint serves decrypted {cipher} values, but the console
// never shows them: it reads the environment as the repository holds it and masks every {cipher} value, whatever
// its key, in the explorer, the downloads and the diffs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AesTextEncryptor } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const KEY = 'console encryption key';
const PLAIN = ['plain-greeting-4711', 'plain-greeting-4712'];

describe('console and {cipher} values', () => {
  let remote: GitRemote;
  let server: TestServer;
  const encryptor = new AesTextEncryptor(KEY, 'deadbeef');

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'app.yml': `greeting: '{cipher}${encryptor.encrypt(PLAIN[0]!)}'\nvisible: yes\n` });
    await remote.commit({ 'app.yml': `greeting: '{cipher}${encryptor.encrypt(PLAIN[1]!)}'\nvisible: yes\n` });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'encrypt.key': KEY,
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('serves the decrypted value to clients and only a mask to the console', async () => {
    assert.match(
      (await server.get('/app/default')).body,
      new RegExp(PLAIN[1]!),
      'clients get the plain text',
    );
    const paths = [
      '/-/console/api/environment?application=app',
      '/-/console/api/environment/download?application=app&format=properties',
      '/-/console/api/diff?application=app',
    ];
    for (const path of paths) {
      const response = await server.get(path);
      assert.equal(response.status, 200, response.body);
      for (const plain of PLAIN) assert.ok(!response.body.includes(plain), `${path} shows ${plain}`);
      assert.ok(!response.body.includes('{cipher}'), `${path} shows the cipher text`);
    }
    const env = (await server.get(paths[0]!)).json() as { items: Array<{ key: string; value: unknown }> };
    assert.deepEqual(
      env.items.map((p) => [p.key, p.value]),
      [
        ['greeting', '******'],
        ['visible', true],
      ],
    );
    const diff = (await server.get(paths[2]!)).json() as { changed: unknown[] };
    assert.deepEqual(diff.changed, [{ key: 'greeting', from: '******', to: '******' }]);
  });
});
