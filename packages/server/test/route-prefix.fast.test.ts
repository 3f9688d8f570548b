/**
 * spring.cloud.config.server.prefix, as Spring mounts its controllers: the environment, file-format, plain-text and
 * encryption endpoints move under the prefix; the actuator endpoints and POST /monitor stay at the root.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveServerSettings } from '../src/index.js';
import { readRoutePrefix } from '../src/http/http-settings.js';
import { type TestServer, startTestServer } from './server-harness.js';

describe('spring.cloud.config.server.prefix', () => {
  let server: TestServer;

  before(async () => {
    const files = { 'app.yml': 'greeting: hello\n', 'nginx.conf': 'says ${greeting}\n' };
    server = await startTestServer(
      {
        'spring.cloud.config.server.prefix': 'config/', // Spring's mapping takes it with or without the slashes
        'spring.cloud.bus.enabled': 'false',
        'encrypt.key': 'a-symmetric-key-for-the-test',
      },
      { files },
    );
  });

  after(async () => {
    await server?.stop();
  });

  it('serves the environment, file-format and plain-text endpoints under the prefix only', async () => {
    const environment = await server.get('/config/app/default');
    assert.equal(environment.status, 200, environment.body);
    assert.equal((environment.json() as { name: string }).name, 'app');
    assert.equal((await server.get('/config/app/default/master')).status, 200);
    assert.match((await server.get('/config/app-default.yml')).body, /^greeting: hello$/m);
    assert.match((await server.get('/config/master/app-default.properties')).body, /^greeting: hello$/m);
    assert.equal((await server.get('/config/app/default/master/nginx.conf')).body, 'says hello\n');
    assert.equal((await server.get('/config/app/default/nginx.conf?useDefaultLabel')).body, 'says hello\n');
    for (const path of ['/app/default', '/app-default.yml', '/app/default/master/nginx.conf']) {
      assert.equal((await server.get(path)).status, 404, `${path} is no longer served at the root`);
    }
    // A repeat goes through the fast path: it must answer the prefixed URL the same way.
    assert.equal((await server.get('/config/app/default')).status, 200);
  });

  it('moves /encrypt, /decrypt and /key under it too, as Spring does', async () => {
    const status = await server.get('/config/encrypt/status');
    assert.deepEqual(status.json(), { status: 'OK' });
    const encrypted = await fetch(`${server.base}/config/encrypt`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'secret-text',
    });
    assert.equal(encrypted.status, 200);
    const decrypted = await fetch(`${server.base}/config/decrypt`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: await encrypted.text(),
    });
    assert.equal(await decrypted.text(), 'secret-text');
    assert.equal((await fetch(`${server.base}/encrypt/status`)).status, 404);
  });

  it('keeps the actuator endpoints and POST /monitor at the root', async () => {
    assert.equal((await server.get('/actuator/health')).status, 200);
    assert.equal((await server.get('/actuator/info')).status, 200);
    assert.equal(
      (await server.get('/actuator/env')).status,
      404,
      'nor does /actuator fall through to environments',
    );
    const monitor = await fetch(`${server.base}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'app.yml' }),
    });
    // No bus here, the watch stream on: the monitor answers (200, watchers are told), not a 404.
    assert.equal(monitor.status, 200);
  });

  it('refuses a prefix that is not a plain path, or that would cover /actuator or the console', () => {
    const prefixOf = (value: string) =>
      readRoutePrefix(resolveServerSettings({ args: [`--spring.cloud.config.server.prefix=${value}`] }));
    assert.equal(prefixOf(''), '');
    assert.equal(prefixOf('/'), '');
    assert.equal(prefixOf('/config/v1/'), '/config/v1');
    for (const bad of ['/con fig', '/a/../b', '/actuator', '/-/x', '/%2e']) {
      assert.throws(() => prefixOf(bad), /spring\.cloud\.config\.server\.prefix/, bad);
    }
  });
});
