import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveSettings, type SettingSpec } from '@confbus/core';
import { effectiveSettings } from '@confbus/core/internal';

const specs: SettingSpec[] = [
  { key: 'server.port', type: 'integer', default: 8888, description: 'port' },
  { key: 'spring.cloud.config.server.git.uri', type: 'string', description: 'uri' },
  { key: 'spring.rabbitmq.password', type: 'string', default: 'guest', secret: true, description: 'pw' },
  { key: 'encrypt.key', type: 'string', description: 'key' },
  { key: 'logging.level.root', type: 'string', default: 'info', description: 'level' },
  { key: 'spring.cloud.config.headers', type: 'string', isPrefix: true, description: 'headers' },
];

describe('effectiveSettings', () => {
  it('shows what did not come from a default, with its source, secrets and URI passwords masked', () => {
    const settings = resolveSettings(
      specs,
      {
        args: [
          '--server.port=9000',
          '--spring.cloud.config.server.git.uri=https://me:tok3n@git.example/r.git',
        ],
        env: { SPRING_RABBITMQ_PASSWORD: 's3cret', ENCRYPT_KEY: 'k3y' },
      },
      { unknownKeys: 'error' },
    );
    const shown = effectiveSettings(settings);
    assert.deepEqual(shown, {
      'server.port': '9000 (argument)',
      'spring.cloud.config.server.git.uri': 'https://me:******@git.example/r.git (argument)',
      'spring.rabbitmq.password': '****** (environment)',
      'encrypt.key': '****** (environment)',
    });
    const text = JSON.stringify(shown);
    for (const secret of ['tok3n', 's3cret', 'k3y']) assert.ok(!text.includes(secret), secret);
  });

  it("leaves out keys kept as written (a client's own properties), not the entries of a declared map", () => {
    const settings = resolveSettings(
      specs,
      {
        args: ['--greeting=hello', '--spring.cloud.config.headers.X-Tenant=t1', '--server.port=9000'],
        file: { path: 'application.yml', text: 'db:\n  password: s3cret\n' },
      },
      { unknownKeys: 'keep' },
    );
    assert.deepEqual(effectiveSettings(settings), {
      'spring.cloud.config.headers.x-tenant': 't1 (argument)',
      'server.port': '9000 (argument)',
    });
  });
});
