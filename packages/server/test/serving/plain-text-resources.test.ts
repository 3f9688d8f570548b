/** The plain-text endpoint (Spring's ResourceController) against a real repository. */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x24, 0x7b]);

describe('plain-text resources', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'application.yml': 'server.port: 8080\n',
      'web.yml': 'upstream: app.internal\n',
      'web-dev.yml': 'upstream: dev.internal\n',
      'nginx.conf': 'proxy_pass http://${upstream}:${server.port}; # ${missing}\n',
      'nginx-dev.conf': 'dev ${upstream}\n',
      'nested/logback.xml': '<level>${log.level:INFO}</level>\n',
      'config/web/only-in-search-path.txt': 'found in {application}\n',
      'logo.png': PNG,
    });
    await remote.commit({ 'nginx.conf': 'release ${upstream}\n' }, { branch: 'release' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.search-paths': 'config/{application}',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('resolves ${...} from the application environment, leaving unknown ones as written', async () => {
    const response = await server.get('/web/default/master/nginx.conf');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(response.body, 'proxy_pass http://app.internal:8080; # ${missing}\n');
    assert.match(response.headers.get('x-config-version') ?? '', /^[0-9a-f]{40}$/);
  });

  it('serves the profile-specific variant first, resolved with that profile', async () => {
    assert.equal((await server.get('/web/dev/master/nginx.conf')).body, 'dev dev.internal\n');
    assert.equal((await server.get('/web/prod/master/nginx.conf')).body.startsWith('proxy_pass'), true);
  });

  it('takes the label from the URL, or the default label with ?useDefaultLabel', async () => {
    assert.equal((await server.get('/web/default/release/nginx.conf')).body, 'release app.internal\n');
    const defaulted = await server.get('/web/default/nginx.conf?useDefaultLabel');
    assert.equal(defaulted.status, 200);
    assert.match(defaulted.body, /^proxy_pass/);
  });

  it('finds files in sub-directories and along the search paths; ?resolvePlaceholders=false keeps them', async () => {
    assert.equal((await server.get('/web/default/master/nested/logback.xml')).body, '<level>INFO</level>\n');
    assert.equal(
      (await server.get('/web/default/master/only-in-search-path.txt')).body,
      'found in {application}\n',
    );
    const raw = await server.get('/web/default/master/nginx.conf?resolvePlaceholders=false');
    assert.match(raw.body, /\$\{upstream\}/);
  });

  it('answers raw bytes for Accept: application/octet-stream', async () => {
    const response = await fetch(`${server.base}/web/default/master/logo.png`, {
      headers: { accept: 'application/octet-stream' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), PNG);
  });

  it('404 for a missing file or label; the environment routes are unchanged', async () => {
    const missing = await server.get('/web/default/master/nope.conf');
    assert.equal(missing.status, 404);
    assert.match(missing.body, /CONFBUS_RESOURCE_NOT_FOUND/);
    assert.equal((await server.get('/web/default/nolabel/nginx.conf')).status, 404);
    assert.equal((await server.get('/web/default/master')).status, 200);
    assert.equal((await server.get('/master/web-default.yml')).status, 200);
  });

  it('refuses traversal and hidden paths with 400', async () => {
    for (const path of [
      '/web/default/master/..%2F..%2Fetc%2Fpasswd',
      '/web/default/master/nested/%2E%2E/nginx.conf',
      '/web/default/master/.git/config',
      '/web/default/master/a%5Cb',
      '/web/default/master/a%00b',
      '/web/default/master/nested//logback.xml',
    ]) {
      const response = await rawGet(server.base, path);
      assert.ok([400, 404].includes(response.status), `${path}: ${response.status}`);
      assert.doesNotMatch(response.body, /root:|\[core\]/);
    }
    assert.equal((await server.get('/web/default/master/.git/config')).status, 400);
  });
});

/** A GET with the path sent exactly as written (fetch would resolve `%2E%2E` and `//` before sending). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe("plain-text resources: Spring's lookup order (GenericResourceRepository, 2.2.8 and later)", () => {
  let remote: GitRemote;
  let server: TestServer;
  let reversed: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'nginx.conf': 'root\n',
      'logback-dev.xml': 'root dev\n',
      'logback.xml': 'root plain\n',
      'config/web/nginx.conf': 'search path\n',
      'config/web/nginx-dev.conf': 'search path dev\n',
    });
    const settings = {
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.search-paths': 'config/{application}',
    };
    server = await startGitTestServer(settings);
    reversed = await startGitTestServer({
      ...settings,
      'spring.cloud.config.server.reverse-location-order': 'true',
    });
  });

  after(async () => {
    await server?.stop();
    await reversed?.stop();
    await remote?.remove();
  });

  it('takes the first location holding any variant (the root first), profile variants first within it', async () => {
    // The root holds nginx.conf only: it wins over the search path's profile-specific nginx-dev.conf.
    assert.equal((await server.get('/web/dev/master/nginx.conf')).body, 'root\n');
    assert.equal((await server.get('/web/default/master/nginx.conf')).body, 'root\n');
    assert.equal((await server.get('/web/dev/master/logback.xml')).body, 'root dev\n');
  });

  it('looks in the search paths before the root with reverse-location-order=true', async () => {
    assert.equal((await reversed.get('/web/dev/master/nginx.conf')).body, 'search path dev\n');
    assert.equal((await reversed.get('/web/default/master/nginx.conf')).body, 'search path\n');
    assert.equal((await reversed.get('/web/dev/master/logback.xml')).body, 'root dev\n');
  });
});
