/**
 * `spring.config.import` inside repository files, against the order a running Spring Cloud Config Server
 * 5.0.2 answered for the same repository (`/foo/dev,mysql`, captured once; see config-imports.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer, startTestServer } from './server-harness.js';

/** The uri the fake repository reports (its property sources are named after it). */
const FAKE_URI = 'fake://config';

interface EnvironmentJson {
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('spring.config.import in repository files', () => {
  let files: Record<string, string>;
  let server: TestServer;

  before(async () => {
    files = {
      'application.yml': 'greeting: hello\nspring.config.import: optional:appextra.yml\n',
      'application-dev.yml': 'ad: 1\n',
      'foo.yml': [
        'spring:',
        '  config:',
        '    import:',
        '      - optional:extra.yml',
        '      - optional:file:sub/other.yml',
        '      - optional:missing.yml',
        '      - optional:../../etc/hostname',
        '      - optional:sub/',
        'foo: from-foo',
        'shared: foo',
        '',
      ].join('\n'),
      'foo-dev.yml': 'dev: yes\nspring.config.import: optional:devextra.yml\n',
      'foo-mysql.yml': 'mysql: yes\n',
      'extra.yml': 'extra: from-extra\nshared: extra\nspring.config.import: optional:chain.yml\n',
      'extra-dev.yml': 'extra: from-extra-dev\n',
      'extra-mysql.yml': 'em: 1\n',
      'chain.yml': 'chain: yes-chained\n',
      // loop.yml imports loop-b.yml, which imports loop.yml back: each file is read once.
      'loop.yml': 'a: 1\nspring.config.import: loop-b.yml\n',
      'loop-b.yml': 'b: 1\nspring.config.import: loop.yml,../outside.yml\n',
      'chain-dev.yml': 'cd: 1\n',
      'appextra.yml': 'ae: 1\n',
      'appextra-dev.yml': 'aed: 1\n',
      'appextra-mysql.yml': 'aem: 1\n',
      'devextra.yml': 'de: 1\n',
      'devextra-dev.yml': 'ded: 1\n',
      'sub/application.yml': 'subapp: from-sub-application\n',
      'sub/application-dev.yml': 'sad: 1\n',
      'sub/other.yml': 'other: from-other\n',
      'rel.yml': 'spring.config.import: sub/nested.yml\n',
      'sub/nested.yml': 'nested: 1\nspring.config.import: ../relchain.yml\n',
      'relchain.yml': 'rc: 1\n',
      'hostile.yml': [
        'spring.config.import: >-',
        '  /etc/passwd.yml, file:/etc/x.yml, classpath:x.yml, ../../x.yml,',
        '  sub/../../x.yml, configserver:http://x/, sub/..%2F..%2Fx.yml, ..\\x.yml',
        '',
      ].join('\n'),
    };
    server = await startTestServer({ 'spring.cloud.config.server.git.uri': FAKE_URI }, { files });
  });

  after(async () => {
    await server?.stop();
  });

  const names = async (path: string): Promise<string[]> => {
    const response = await server.get(path);
    assert.equal(response.status, 200, response.body);
    const uri = FAKE_URI.replace(/\/+$/, '');
    return (response.json() as EnvironmentJson).propertySources.map((s) => s.name.replace(`${uri}/`, ''));
  };

  it('serves imported files in the order Spring does, profile variants included', async () => {
    assert.deepEqual(await names('/foo/dev,mysql'), [
      'sub/application-dev.yml',
      'extra-mysql.yml',
      'extra-dev.yml',
      'appextra-mysql.yml',
      'appextra-dev.yml',
      'foo-mysql.yml',
      'devextra-dev.yml',
      'devextra.yml',
      'foo-dev.yml',
      'application-dev.yml',
      'chain-dev.yml',
      'sub/application.yml',
      'chain.yml',
      'extra.yml',
      'foo.yml',
      'appextra.yml',
      'application.yml',
    ]);
  });

  it('ranks an import above its importer in the merged files', async () => {
    const response = await server.get('/foo-default.properties');
    assert.equal(response.status, 200);
    assert.match(response.body, /^shared: extra$/m);
    assert.match(response.body, /^subapp: from-sub-application$/m);
    assert.doesNotMatch(response.body, /from-other/);
  });

  it('resolves a location from the importing file’s folder', async () => {
    assert.deepEqual(await names('/rel/default'), [
      'relchain.yml',
      'sub/nested.yml',
      'rel.yml',
      'appextra.yml',
      'application.yml',
    ]);
  });

  it('reads each file once, so import cycles end', async () => {
    assert.deepEqual(await names('/loop/default'), [
      'loop-b.yml',
      'loop.yml',
      'appextra.yml',
      'application.yml',
    ]);
  });

  it('never serves prefixed, absolute or escaping locations', async () => {
    assert.deepEqual(await names('/hostile/default'), ['hostile.yml', 'appextra.yml', 'application.yml']);
  });
});
