/**
 * Answers pinned to what a running Spring Cloud Config Server 5.0.6 (Boot 4.0) gave for the same repository,
 * where an issue had expected something else:
 * - `${ greeting }` (spaces inside the braces) is resolved in `.yml` and `.json` values (their keys are stripped,
 *   spring-cloud-config#3235) but not in `.properties` or plain text, where the key looked up is ` greeting `;
 *   `${ missing : dflt }` yields ` dflt ` (spaces kept) in all of them;
 * - `profiles` echoes the request's profiles as one element (`["dev,mysql"]`): CompositeEnvironmentRepository
 *   builds the answer with `new String[] { profile }`, in the v1 and v2 media types alike;
 * - a multi-label request on the plain-text endpoint (`/{name}/{profile}/{l1},{l2}/{path}`) answers 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer, startTestServer } from './server-harness.js';

/** The uri the fake repository reports (its property sources are named after it). */
const FAKE_URI = 'fake://config';

describe('answers as Spring Cloud Config Server gives them', () => {
  let files: Record<string, string>;
  let server: TestServer;

  before(async () => {
    files = {
      'application.yml': [
        'greeting: hello',
        'spaced: "${ greeting } world"',
        'spaced2: "${greeting } and ${ greeting}"',
        'spacedDefault: "${ missing : dflt }"',
        'plain: "${greeting} world"',
        '',
      ].join('\n'),
      'foo-dev.yml': 'dev: yes\n',
      'foo-mysql.yml': 'mysql: yes\n',
      'nginx.conf': 'server ${greeting} ${ greeting };\n',
    };
    server = await startTestServer({ 'spring.cloud.config.server.git.uri': FAKE_URI }, { files });
  });

  after(async () => {
    await server?.stop();
  });

  it('resolves ${ key } with spaces in .yml and .json values only', async () => {
    const properties = await server.get('/foo-default.properties');
    assert.equal(properties.status, 200);
    assert.equal(
      properties.body,
      [
        'greeting: hello',
        'spaced: ${ greeting } world',
        'spaced2: ${greeting } and ${ greeting}',
        'spacedDefault:  dflt ',
        'plain: hello world',
      ].join('\n'),
    );
    const yml = await server.get('/foo-default.yml');
    assert.match(yml.body, /^spaced: hello world\nspaced2: hello and hello\nspacedDefault: ' dflt '$/m);
    const json = (await server.get('/foo-default.json')).json() as Record<string, string>;
    assert.equal(json.spaced, 'hello world');
    assert.equal(json.spaced2, 'hello and hello');
    assert.equal(json.spacedDefault, ' dflt ');
    assert.equal((await server.get('/foo/default/main/nginx.conf')).body, 'server hello ${ greeting };\n');
  });

  it('echoes the profiles as one element, in v1 and v2 answers', async () => {
    for (const accept of ['application/json', 'application/vnd.spring-cloud.config-server.v2+json']) {
      const response = await server.get('/foo/dev,mysql', { accept });
      assert.equal(response.status, 200);
      assert.deepEqual((response.json() as { profiles: string[] }).profiles, ['dev,mysql']);
    }
  });

  it('answers 404 for several labels on the plain-text endpoint', async () => {
    assert.equal((await server.get('/foo/default/main,main/nginx.conf')).status, 404);
  });
});
