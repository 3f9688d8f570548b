/**
 * Spring Cloud Config's whole-server tests and its overrides tests, ported to HTTP against confbus
 * (spring-cloud-config-server, main at 5.0.x): VanillaConfigServerIntegrationTests (Git) and
 * NativeConfigServerIntegrationTests (native), both run with Spring's `configserver-test.yml` override
 * `spring.cloud.config.enabled: true`, asked with the v2 media type and checked by ConfigServerTestUtils
 * .assertConfigEnabled (the override's value carries an origin); EnvironmentEncryptorEnvironmentRepositoryTests
 * (overrides and their escapes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONFIG_REPO, NATIVE_FOLDER, type ServerIn, startServerIn } from './backend-fixtures.js';
import { type PortedServer, V2, assertConfigEnabled, startPortedServer } from './ported-server.js';

const OVERRIDE = { 'spring.cloud.config.server.overrides.spring.cloud.config.enabled': 'true' };

interface V2Environment {
  propertySources: { name: string; source: Record<string, unknown> }[];
}

async function v2(base: string, path: string): Promise<{ status: number; environment: V2Environment }> {
  const response = await fetch(`${base}${path}`, { headers: { accept: V2 } });
  return { status: response.status, environment: (await response.json()) as V2Environment };
}

describe("Spring's VanillaConfigServerIntegrationTests over HTTP", () => {
  let server: PortedServer;

  before(async () => {
    server = await startPortedServer(
      { ...CONFIG_REPO, 'invalid.yaml': 'root: config\nspring:\n                flyway:\n      url: x\n' },
      OVERRIDE,
      { raw: { 'bar.properties': 'foo:bar\n' } },
    );
  });

  after(async () => server?.stop());

  it('contextLoads', async () => {
    const { status, environment } = await v2(server.server.base, '/foo/development');
    assert.equal(status, 200);
    assertConfigEnabled(environment);
  });

  it('resourseEndpointsWork', async () => {
    assert.equal((await server.get('/foo/development/master/bar.properties')).body, 'foo:bar\n');
    const raw = await server.get('/foo/development/raw/bar.properties', 'application/octet-stream');
    assert.equal(raw.body, 'foo:bar\n');
  });

  it('invalidYaml', async () => {
    // Spring answers 500; confbus names the file that does not parse (a client error would blame the request).
    const response = await server.get('/invalid/default', V2);
    assert.ok(response.status >= 500, `${response.status} ${response.body}`);
    assert.match(response.body, /invalid\.yaml/);
  });
});

/** Spring's configserver-test.yml, as the server's own settings file (./application.yml, as `npm start` reads it). */
const OWN_SETTINGS = [
  'spring:',
  '  profiles:',
  '    active: native',
  '  cloud:',
  '    config:',
  '      server:',
  '        overrides:',
  '          spring.cloud.config.enabled: true',
  'info:',
  '  own: configuration',
  '',
].join('\n');

describe("Spring's NativeConfigServerIntegrationTests over HTTP", () => {
  let server: ServerIn;

  before(async () => {
    // Native with its default search locations (file:./, file:./config/): the working directory holds the
    // served files and the server's own settings file.
    server = await startServerIn(
      { ...NATIVE_FOLDER, 'application.yml': OWN_SETTINGS },
      () => ({}),
      'application.yml',
    );
  });

  after(async () => server?.stop());

  it('contextLoads', async () => {
    const { status, environment } = await v2(server.base, '/foo/development');
    assert.equal(status, 200);
    assertConfigEnabled(environment);
  });

  // testConfigServerDoesNotReturnItsOwnConfiguration: backends.test.ts (its server differs: no served files).
});

describe("Spring's EnvironmentEncryptorEnvironmentRepositoryTests over HTTP", () => {
  let server: PortedServer;

  before(async () => {
    server = await startPortedServer(
      { 'foo.properties': 'a.b.c=d\nbar=foo\n' },
      {
        'spring.cloud.config.server.overrides.foo': 'bar',
        'spring.cloud.config.server.overrides.escaped': '$\\{bar}',
      },
    );
  });

  after(async () => server?.stop());

  it('allowOverrideFalse, overrideWithEscapedPlaceholders', async () => {
    const environment = await server.environment('/foo/bar/master');
    assert.equal(environment.propertySources[0]?.name, 'overrides');
    assert.deepEqual(environment.propertySources[0]?.source, { foo: 'bar', escaped: '${bar}' });
  });
});
