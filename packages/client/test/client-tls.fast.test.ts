// spring.cloud.config.tls.* read into the stores the https agent loads: off unless enabled, and the key's own
// password (a key the broker settings do not have) kept beside the key store's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveSettings } from '@confbus/core';
import { clientTlsSettingSpecs, readClientTlsSources } from '../src/fetch/client-tls.js';

const read = (args: string[]) =>
  readClientTlsSources(resolveSettings(clientTlsSettingSpecs, { args }, { unknownKeys: 'error' }));

describe('client TLS settings', () => {
  it('are ignored unless spring.cloud.config.tls.enabled is true', () => {
    assert.equal(read(['--spring.cloud.config.tls.key-store=client.p12']), undefined);
  });

  it('name both stores, their passwords and the key password', () => {
    const sources = read([
      '--spring.cloud.config.tls.enabled=true',
      '--spring.cloud.config.tls.key-store=client.p12',
      '--spring.cloud.config.tls.key-store-password=store-secret',
      '--spring.cloud.config.tls.key-password=key-secret',
      '--spring.cloud.config.tls.trustStore=ca.pem',
    ]);
    assert.deepEqual(sources, {
      keyStore: {
        location: 'client.p12',
        setting: 'spring.cloud.config.tls.key-store',
        type: 'PKCS12',
        password: 'store-secret',
        keyPassword: 'key-secret',
      },
      trustStore: {
        location: 'ca.pem',
        setting: 'spring.cloud.config.tls.trust-store',
        type: 'PKCS12',
        password: undefined,
      },
    });
  });
});
