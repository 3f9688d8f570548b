/**
 * ConfigServerProperties confbus implements as Spring does: strip-document-from-yaml, accept-empty in health
 * (ConfigServerHealthIndicator), default-application-name and default-profile (EncryptionController).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TextEncryptor, type TextEncryptorLocator, silentLogger } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import Fastify from 'fastify';
import { registerEncryptionRoutes } from '../src/encryption/index.js';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

describe('strip-document-from-yaml', () => {
  let remote: GitRemote;
  const servers: TestServer[] = [];

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'list.yml': '- a\n- b\n', 'word.yml': 'hello\n' });
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await remote?.remove();
  });

  const start = async (settings: Record<string, string> = {}) => {
    const server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...settings,
    });
    servers.push(server);
    return server;
  };

  it('writes a lone document as itself by default, and keeps `document:` with false, as Spring does', async () => {
    const stripped = await start();
    assert.equal((await stripped.get('/list-default.yml')).body, '- a\n- b\n');
    assert.equal((await stripped.get('/word-default.yml')).body, 'hello\n');
    const kept = await start({ 'spring.cloud.config.server.strip-document-from-yaml': 'false' });
    assert.equal((await kept.get('/list-default.yml')).body, 'document:\n- a\n- b\n');
    assert.equal((await kept.get('/word-default.yml')).body, 'document: hello\n');
    // Only the YAML rendering changes.
    assert.equal((await kept.get('/list-default.json')).body, '{"document":["a","b"]}');
  });
});

describe('accept-empty=false in health', () => {
  let remote: GitRemote;
  let strict: TestServer;
  let lenient: TestServer;

  interface Health {
    status: string;
    components: { git: { status: string; details: { acceptEmpty?: boolean } } };
  }

  before(async () => {
    remote = await createGitRemote();
    // Nothing the health query (application app, profile default) would read.
    await remote.commit({ 'orders.yml': 'a: 1\n' });
    strict = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.accept-empty': 'false',
      'spring.cloud.config.server.health.down-health-status': 'OUT_OF_SERVICE',
    });
    lenient = await startGitTestServer({ 'spring.cloud.config.server.git.uri': remote.url });
  });

  after(async () => {
    await strict?.stop();
    await lenient?.stop();
    await remote?.remove();
  });

  it('reports down-health-status while the health query finds no file, as Spring does; UP once it does', async () => {
    assert.equal((await strict.get('/orders/default')).status, 200);
    const down = await strict.get('/actuator/health');
    assert.equal(down.status, 503, down.body);
    const body = down.json() as Health;
    assert.equal(body.status, 'OUT_OF_SERVICE');
    assert.equal(body.components.git.status, 'OUT_OF_SERVICE');
    assert.equal(body.components.git.details.acceptEmpty, false);
    assert.equal(
      (await strict.get('/actuator/health/readiness')).status,
      200,
      'other applications are served',
    );
    // With accept-empty (the default) the same repository is UP (once it has been read: its clone starts on the
    // first request, and health is DOWN until a state can be served).
    assert.equal((await lenient.get('/orders/default')).status, 200);
    assert.equal((await lenient.get('/actuator/health')).status, 200);

    await remote.commit({ 'application.yml': 'shared: true\n' });
    const up = await strict.get('/actuator/health');
    assert.equal(up.status, 200, up.body);
    assert.equal((up.json() as Health).components.git.details.acceptEmpty, undefined);
  });
});

describe('default-application-name and default-profile', () => {
  it('are the scope the key locator is asked with when /encrypt, /decrypt or /key name none', async () => {
    const asked: Array<Record<string, string>> = [];
    const encryptor: TextEncryptor = {
      encrypt: (text) => `enc(${text})`,
      decrypt: (text) => text.replace(/^enc\((.*)\)$/, '$1'),
      canDecrypt: true,
      publicKey: () => undefined,
    };
    const locator: TextEncryptorLocator = {
      description: 'recording',
      locate(keys) {
        asked.push(Object.fromEntries(keys));
        return encryptor;
      },
    };
    const app = Fastify();
    registerEncryptionRoutes(app, {
      locator,
      logger: silentLogger,
      defaultScope: { name: 'shared', profiles: 'prod' },
    });
    await app.ready();
    try {
      const post = (url: string) =>
        app.inject({ method: 'POST', url, payload: 'text', headers: { 'content-type': 'text/plain' } });
      assert.equal((await post('/encrypt')).body, 'enc(text)');
      await post('/encrypt/orders/dev');
      await app.inject({ method: 'GET', url: '/encrypt/status' });
      assert.deepEqual(
        asked.map(({ name, profiles }) => `${name}/${profiles}`),
        ['shared/prod', 'orders/dev', 'shared/prod'],
      );
    } finally {
      await app.close();
    }
  });
});
