import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { environmentNamesFor, resolveSettings, type SettingSpec, SettingsError } from '@confbus/core';

const specs: SettingSpec[] = [
  { key: 'server.port', type: 'integer', default: 8888, description: 'port' },
  {
    key: 'spring.cloud.config.server.git.default-label',
    type: 'string',
    default: 'master',
    description: 'label',
  },
  { key: 'spring.rabbitmq.password', type: 'string', secret: true, description: 'pw' },
  { key: 'spring.rabbitmq.addresses', type: 'list', description: 'addresses' },
  { key: 'spring.cloud.bus.enabled', type: 'boolean', default: false, description: 'bus' },
];

describe('settings resolver', () => {
  it('orders sources: arguments over environment over file over defaults', () => {
    const file = {
      path: 'application.yml',
      text: 'server:\n  port: 7000\nspring:\n  cloud:\n    bus:\n      enabled: on\n',
    };
    const fromFile = resolveSettings(specs, { file }, { unknownKeys: 'error' });
    assert.equal(fromFile.get('server.port'), 7000);
    assert.equal(fromFile.get('spring.cloud.bus.enabled'), true);
    const fromEnv = resolveSettings(specs, { file, env: { SERVER_PORT: '7100' } }, { unknownKeys: 'error' });
    assert.equal(fromEnv.get('server.port'), 7100);
    assert.equal(fromEnv.sourceOf('server.port'), 'environment');
    const fromArgs = resolveSettings(
      specs,
      { file, env: { SERVER_PORT: '7100' }, args: ['server', '--server.port=7200'] },
      { unknownKeys: 'error' },
    );
    assert.equal(fromArgs.get('server.port'), 7200);
    assert.deepEqual(fromArgs.positionals, ['server']);
    assert.equal(resolveSettings(specs, {}, { unknownKeys: 'error' }).get('server.port'), 8888);
  });

  it('maps relaxed environment names, with and without dashes', () => {
    assert.deepEqual(environmentNamesFor('spring.cloud.config.server.git.default-label'), [
      'SPRING_CLOUD_CONFIG_SERVER_GIT_DEFAULTLABEL',
      'SPRING_CLOUD_CONFIG_SERVER_GIT_DEFAULT_LABEL',
    ]);
    const s = resolveSettings(
      specs,
      { env: { SPRING_CLOUD_CONFIG_SERVER_GIT_DEFAULT_LABEL: 'main' } },
      { unknownKeys: 'error' },
    );
    assert.equal(s.get('spring.cloud.config.server.git.default-label'), 'main');
  });

  it('reads lists from commas and YAML sequences', () => {
    const a = resolveSettings(
      specs,
      { args: ['--spring.rabbitmq.addresses=a:1, b:2'] },
      { unknownKeys: 'error' },
    );
    assert.deepEqual(a.list('spring.rabbitmq.addresses'), ['a:1', 'b:2']);
    const file = { path: 'f.yml', text: 'spring.rabbitmq.addresses:\n  - a:1\n  - b:2\n' };
    assert.deepEqual(
      resolveSettings(specs, { file }, { unknownKeys: 'error' }).list('spring.rabbitmq.addresses'),
      ['a:1', 'b:2'],
    );
  });

  it('rejects unknown keys with a suggestion, or keeps them for clients', () => {
    assert.throws(
      () => resolveSettings(specs, { args: ['--server.prot=1'] }, { unknownKeys: 'error' }),
      (error: unknown) =>
        error instanceof SettingsError &&
        error.key === 'server.prot' &&
        /Did you mean 'server.port'/.test(error.message),
    );
    const kept = resolveSettings(specs, { args: ['--group.comment=hi'] }, { unknownKeys: 'keep' });
    assert.equal(kept.get('group.comment'), 'hi');
  });

  it('names the key of a malformed value and hides secrets', () => {
    assert.throws(
      () => resolveSettings(specs, { args: ['--server.port=eighty'] }, { unknownKeys: 'error' }),
      /Setting 'server.port' from argument: 'eighty' must be a whole number/,
    );
    const secretSpecs: SettingSpec[] = [
      { key: 'spring.rabbitmq.password', type: 'integer', secret: true, description: '' },
    ];
    assert.throws(
      () =>
        resolveSettings(
          secretSpecs,
          { args: ['--spring.rabbitmq.password=hunter2'] },
          { unknownKeys: 'error' },
        ),
      (error: unknown) =>
        error instanceof Error && !error.message.includes('hunter2') && error.message.includes('(hidden)'),
    );
  });

  it('reports the line of a broken settings file', () => {
    assert.throws(
      () =>
        resolveSettings(
          specs,
          { file: { path: 'bad.yml', text: 'server:\n  port: [1\n' } },
          { unknownKeys: 'error' },
        ),
      /Settings file bad.yml line \d+ is not valid YAML/,
    );
  });
});
