/**
 * `Accept: application/vnd.spring-cloud.config-server.v2+json`: values as `{value, origin}`, with the origins a
 * running Spring Cloud Config Server 5.0.2 served for the same files (captured once), decrypted values bare
 * and last, and the plain `application/json` answer unchanged.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer, startTestServer } from './server-harness.js';

/** The uri the fake repository reports (its property sources are named after it). */
const FAKE_URI = 'fake://config';

const V2 = 'application/vnd.spring-cloud.config-server.v2+json';
const CIPHER = '694142f072ef97791c7c513dd30b8631e9582f0ec3fb0618684792d8de4aec4e'; // "s3cret", key below

interface Environment {
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

const APPLICATION_YML = [
  'greeting: hello',
  'spaced: "${ greeting } world"',
  'spaced2: "${greeting } and ${ greeting}"',
  'spacedDefault: "${ missing : dflt }"',
  'multi: |',
  '  line one',
  '  line two',
  'multiNoEnd: "a\\nb"',
  'multiTrail: "a \\nb"',
  'multiLead: "\\nfoo"',
  'multiPlus: "a\\n\\n"',
  'longplain: "word word"',
  'longquoted: "\'word word"',
  'mapkeys:',
  '  "[a.b]": x',
  '  "[weird]": y',
  '  "key[x]": z',
  '  "key[x].sub": w',
  '  "k[1x]": v',
  'nested:',
  '  list[abc]:',
  '    deep: 1',
  'ctrl: "a\\u0001b"',
  'tab: "a\\tb"',
  '',
].join('\n');

describe('v2 environment JSON with origins', () => {
  let files: Record<string, string>;
  let server: TestServer;

  before(async () => {
    files = {
      'application.yml': APPLICATION_YML,
      'foo.yml': [
        'spring:',
        '  config:',
        '    import:',
        '      - optional:missing.yml',
        '      - optional:other.yml',
        'foo: from-foo',
        'shared: foo',
        '',
      ].join('\n'),
      'secret.yml': `password: '{cipher}${CIPHER}'\nplain: \${greeting}\n`,
      'secret.properties': `p={cipher}${CIPHER}\nq=\${greeting}\n`,
    };
    server = await startTestServer(
      {
        'encrypt.key': 'probe-secret-key',
      },
      { files },
    );
  });

  after(async () => {
    await server?.stop();
  });

  const sources = async (path: string, accept: string) => {
    const response = await server.get(path, { accept });
    assert.equal(response.status, 200, response.body);
    assert.equal(response.headers.get('content-type'), accept === V2 ? V2 : 'application/json');
    const uri = FAKE_URI.replace(/\/+$/, '');
    return Object.fromEntries(
      (response.json() as Environment).propertySources.map((s) => [s.name.replace(`${uri}/`, ''), s.source]),
    );
  };
  const originsOf = (source: Record<string, unknown> | undefined) =>
    Object.fromEntries(
      Object.entries(source ?? {}).map(([key, value]) => [
        key,
        (value as { origin?: string }).origin ?? null,
      ]),
    );

  it('gives each file value the origin Spring gives it', async () => {
    const foo = await sources('/foo/default', V2);
    assert.deepEqual(originsOf(foo['application.yml']), {
      greeting: '1:11',
      spaced: '2:9',
      spaced2: '3:10',
      spacedDefault: '4:16',
      multi: '5:8',
      multiNoEnd: '8:13',
      multiTrail: '9:13',
      multiLead: '10:12',
      multiPlus: '11:12',
      longplain: '12:12',
      longquoted: '13:13',
      'mapkeys[a.b]': '15:12',
      'mapkeys[weird]': '16:14',
      'mapkeys.key[x]': '17:13',
      'mapkeys.key[x].sub': '18:17',
      'mapkeys.k[1x]': '19:12',
      'nested.list[abc].deep': '22:11',
      ctrl: '23:7',
      tab: '24:6',
    });
    assert.deepEqual(foo['application.yml']?.greeting, { value: 'hello', origin: '1:11' });
    assert.deepEqual(foo['application.yml']?.multi, { value: 'line one\nline two\n', origin: '5:8' });
    assert.deepEqual(originsOf(foo['foo.yml']), {
      'spring.config.import[0]': '4:9',
      'spring.config.import[1]': '5:9',
      foo: '6:6',
      shared: '7:9',
    });
  });

  it('serves decrypted values bare and last, as Spring does', async () => {
    const secret = await sources('/secret/default', V2);
    assert.deepEqual(secret['secret.properties'], {
      q: { value: '${greeting}', origin: '2:3' },
      p: 's3cret',
    });
    assert.deepEqual(secret['secret.yml'], {
      plain: { value: '${greeting}', origin: '2:8' },
      password: 's3cret',
    });
    // Several labels combine the labels' sources, origins included.
    const twice = await sources('/secret/default/main,main', V2);
    assert.deepEqual(twice['secret.yml'], secret['secret.yml']);
  });

  it('keeps application/json answers bare', async () => {
    const secret = await sources('/secret/default', 'application/json');
    assert.deepEqual(secret['secret.properties'], { q: '${greeting}', p: 's3cret' });
    // A repeated URL (answered by the fast path) still follows each request's Accept header.
    assert.deepEqual((await sources('/secret/default', V2))['secret.properties'], {
      q: { value: '${greeting}', origin: '2:3' },
      p: 's3cret',
    });
    assert.deepEqual((await sources('/secret/default', 'application/json'))['secret.properties'], {
      q: '${greeting}',
      p: 's3cret',
    });
  });
});
