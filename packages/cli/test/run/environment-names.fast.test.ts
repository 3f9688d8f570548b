/** Keys as the environment variables Spring Boot binds back to them (SystemEnvironmentPropertyMapper's rule). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { springEnvironmentName } from '../../src/run/environment-names.js';

/**
 * Boot's reading of a variable name (SystemEnvironmentPropertyMapper.convertName(String)): split at `_`, lower
 * case, digits as an index; compared with the key's uniform form (dashes dropped). Written from Boot's source.
 */
function bootReadsBack(variable: string): string {
  return variable
    .split('_')
    .map((part) => part.toLowerCase())
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

function uniformKey(key: string): string {
  return key.toLowerCase().replace(/-/g, '');
}

describe('springEnvironmentName', () => {
  const cases: Array<[string, string]> = [
    ['group.comment', 'GROUP_COMMENT'],
    ['features[0]', 'FEATURES_0'],
    ['servers[0].host', 'SERVERS_0_HOST'],
    ['matrix[1][2]', 'MATRIX_1_2'],
    ['my-app.first-name', 'MYAPP_FIRSTNAME'],
    ['group.myKey', 'GROUP_MYKEY'],
    ['logging.level.com.example', 'LOGGING_LEVEL_COM_EXAMPLE'],
    ['server.port', 'SERVER_PORT'],
  ];
  for (const [key, variable] of cases) {
    it(`maps ${key} to ${variable}, which Boot reads back as the same key`, () => {
      assert.equal(springEnvironmentName(key), variable);
      assert.equal(bootReadsBack(variable), uniformKey(key));
    });
  }

  it('drops characters a plain element cannot hold, as the uniform form does', () => {
    assert.equal(springEnvironmentName('my_key.x'), 'MYKEY_X');
  });

  it('refuses keys no variable name can hold', () => {
    assert.equal(springEnvironmentName('map[key.with.dots]'), undefined);
    assert.equal(springEnvironmentName('hosts[a b]'), undefined);
    assert.equal(springEnvironmentName('a.-.b'), undefined);
    assert.equal(springEnvironmentName(''), undefined);
  });
});
