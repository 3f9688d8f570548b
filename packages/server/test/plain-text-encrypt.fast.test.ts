/**
 * `spring.cloud.config.server.encrypt.plain-text-encrypt`: `{cipher}` values in .yml/.properties/.json files of
 * the plain-text endpoint decrypted in place, as Spring's CipherResource*Encryptors do; off by default.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer, startTestServer } from './server-harness.js';

const KEY = 'probe-secret-key';
// `confbus encrypt --encrypt.key=probe-secret-key s3cret` (AES, random salt: any such cipher text decrypts).
const CIPHER = '694142f072ef97791c7c513dd30b8631e9582f0ec3fb0618684792d8de4aec4e';

describe('plain-text resources with {cipher} values', () => {
  let files: Record<string, string>;
  const servers: TestServer[] = [];

  before(async () => {
    files = {
      'application.yml': 'greeting: hello\n',
      'secret.yml': `# keep me\npassword: '{cipher}${CIPHER}'\nplain: \${greeting}\nlist:\n  - "{cipher}${CIPHER}"\n`,
      'secret.properties': `p={cipher}${CIPHER}\nq=\${greeting}\n`,
      'secret.json': `{"j": "{cipher}${CIPHER}", "n": 1}\n`,
      'secret.conf': `password {cipher}${CIPHER};\n`,
    };
  });

  after(async () => {
    for (const server of servers) await server.stop();
  });

  const start = async (settings: Record<string, string>) => {
    const server = await startTestServer(
      {
        'encrypt.key': KEY,
        ...settings,
      },
      { files },
    );
    servers.push(server);
    return server;
  };

  it('decrypts values in .yml, .properties and .json text, after placeholders, keeping the layout', async () => {
    const server = await start({ 'spring.cloud.config.server.encrypt.plainTextEncrypt': 'true' });
    const yml = await server.get('/app/default/main/secret.yml');
    assert.equal(yml.status, 200);
    assert.equal(yml.body, `# keep me\npassword: 's3cret'\nplain: hello\nlist:\n  - "s3cret"\n`);
    assert.equal((await server.get('/app/default/main/secret.properties')).body, 'p=s3cret\nq=hello\n');
    assert.equal((await server.get('/app/default/main/secret.json')).body, '{"j": "s3cret", "n": 1}\n');
    // Other extensions, and raw bytes, are served as stored.
    assert.equal((await server.get('/app/default/main/secret.conf')).body, `password {cipher}${CIPHER};\n`);
    const binary = await server.get('/app/default/main/secret.yml', { accept: 'application/octet-stream' });
    assert.match(binary.body, /\{cipher\}/);
  });

  it('serves {cipher} values as stored by default (Spring’s default: false)', async () => {
    const server = await start({});
    const yml = await server.get('/app/default/main/secret.yml');
    assert.equal(yml.status, 200);
    assert.match(yml.body, new RegExp(`password: '\\{cipher\\}${CIPHER}'`));
  });
});
