import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSecretKey, maskPropertyValue, maskUriUserInfo, maskValue } from '@confbus/core';

describe('secrets', () => {
  it('recognises Boot sanitizer keys, case-insensitively', () => {
    for (const key of [
      'spring.datasource.password',
      'DB_PASSWORD',
      'client-secret',
      'api.token',
      'aws.credentials.id',
      'vcap_services',
      'encrypt.key',
      'my.apiKey',
      'list[0].private-key',
      'sun.java.command',
    ]) {
      assert.equal(isSecretKey(key), true, key);
    }
    for (const key of ['server.port', 'key.alias', 'keystore.type', 'spring.application.name', 'monkeys']) {
      assert.equal(isSecretKey(key), false, key);
    }
  });

  it('masks values and URI passwords', () => {
    assert.equal(maskValue('hunter2'), '******');
    assert.equal(maskUriUserInfo('https://user:pw@h/x'), 'https://user:******@h/x');
    assert.equal(
      maskUriUserInfo('amqp://u:p@a:5672,amqp://v:q@b'),
      'amqp://u:******@a:5672,amqp://v:******@b',
    );
    assert.equal(maskUriUserInfo('https://user@h'), 'https://user@h');
    assert.equal(maskUriUserInfo('https://h/path:x@y'), 'https://h/path:x@y');
  });

  it('masks property values as /actuator/env shows them', () => {
    assert.equal(maskPropertyValue('db.password', 'hunter2'), '******');
    assert.equal(maskPropertyValue('db.password', 42), '******');
    assert.equal(
      maskPropertyValue('db.url', 'jdbc:postgresql://u:pw@h/db'),
      'jdbc:postgresql://u:******@h/db',
    );
    assert.equal(maskPropertyValue('server.port', 8080), 8080);
    // A {cipher} value, whatever its key: its {secret:...} prefix would be a key password in clear.
    assert.equal(maskPropertyValue('group.comment', '{cipher}{key:k}{secret:pw}AQB0'), '******');
    assert.equal(maskPropertyValue('group.comment', '{cipher}ab12'), '******');
    assert.equal(maskPropertyValue('feature.on', true), true);
  });
});
