/** spring.cloud.config.server.overrides.*: the first property source of every environment, as in Spring. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveServerSettings } from '../src/index.js';
import { readOverrides } from '../src/environment/environment-settings.js';
import { type TestServer, startTestServer } from './server-harness.js';

/** The uri the fake repository reports (its property sources are named after it). */
const FAKE_URI = 'fake://config';

describe('overrides', () => {
  let files: Record<string, string>;
  let server: TestServer;

  before(async () => {
    files = { 'application.yml': 'foo: from-repo\nother: kept\n', 'app-dev.yml': 'foo: dev\n' };
    server = await startTestServer(
      {
        'spring.cloud.config.server.overrides.foo': 'forced',
        'spring.cloud.config.server.overrides.myKey': '${user.name}',
        'spring.cloud.config.server.overrides.escaped': '\\${app.hello:Hello}',
        'spring.cloud.config.server.overrides.fromServer': 'served by ${server.address}',
      },
      { files },
    );
  });

  after(async () => {
    await server?.stop();
  });

  it('serves them first, as the `overrides` source, keys as written, placeholders the server cannot resolve passed through', async () => {
    const body = (await server.get('/app/dev')).json() as {
      propertySources: Array<{ name: string; source: Record<string, unknown> }>;
    };
    assert.deepEqual(
      body.propertySources.map((source) => source.name),
      ['overrides', `${FAKE_URI}/app-dev.yml`, `${FAKE_URI}/application.yml`],
    );
    assert.deepEqual(body.propertySources[0]?.source, {
      foo: 'forced',
      myKey: '${user.name}',
      escaped: '${app.hello:Hello}',
      // Resolved against the server's own settings, as Spring binds its settings.
      fromServer: 'served by 127.0.0.1',
    });
  });

  it('carry the origin "Config server overrides" in the v2 media type, as Spring gives them', async () => {
    for (const path of ['/app/dev', '/app/dev/main']) {
      const body = (
        await server.get(path, { accept: 'application/vnd.spring-cloud.config-server.v2+json' })
      ).json() as { propertySources: Array<{ name: string; source: Record<string, unknown> }> };
      const [overrides, file] = body.propertySources;
      assert.deepEqual(overrides?.source.foo, { value: 'forced', origin: 'Config server overrides' }, path);
      assert.deepEqual(
        overrides?.source.escaped,
        { value: '${app.hello:Hello}', origin: 'Config server overrides' },
        path,
      );
      assert.deepEqual(file?.source.foo, { value: 'dev', origin: '1:6' }, 'files keep their line:column');
    }
  });

  it('win in the rendered files too', async () => {
    const yml = await server.get('/app-dev.yml');
    assert.match(yml.body, /^foo: forced$/m);
    assert.match(yml.body, /^other: kept$/m);
    assert.match(yml.body, /^escaped: Hello$/m, 'resolved like any value when rendering with placeholders');
    const raw = await server.get('/app-dev.properties?resolvePlaceholders=false');
    assert.match(raw.body, /^escaped: \$\{app\.hello:Hello\}$/m);
  });
});

describe('overrides from environment variables', () => {
  it("are bound as Boot's SystemEnvironmentPropertySource maps them: dotted, lower-cased", () => {
    const settings = resolveServerSettings({
      env: {
        SPRING_CLOUD_CONFIG_SERVER_OVERRIDES_FOO: 'bar',
        SPRING_CLOUD_CONFIG_SERVER_OVERRIDES_LOGGING_LEVEL_ROOT: 'WARN',
      },
    });
    assert.deepEqual(settings.warnings, []);
    assert.deepEqual(readOverrides(settings), { foo: 'bar', 'logging.level.root': 'WARN' });
  });
});

describe('overrides written with the key in brackets', () => {
  it('keep the dots inside the brackets, as Boot binds `overrides[logging.level.root]`', () => {
    const settings = resolveServerSettings({
      args: ['--spring.cloud.config.server.overrides[logging.level.root]=WARN'],
      file: { path: 'application.yml', text: 'spring.cloud.config.server.overrides:\n  "[a.b]": c\n' },
    });
    assert.deepEqual(readOverrides(settings), { 'a.b': 'c', 'logging.level.root': 'WARN' });
  });
});
