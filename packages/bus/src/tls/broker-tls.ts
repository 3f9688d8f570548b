/**
 * Node's TLS connection options for a broker (RabbitMQ, Kafka) from the settings' stores: the client certificate,
 * the CAs to trust, whether the certificate and its host name are checked, the TLS version. Read when the
 * transport starts; a store that cannot be opened fails the start, naming its setting.
 */
import { readFile } from 'node:fs/promises';
import { type ConnectionOptions, type SecureVersion, checkServerIdentity } from 'node:tls';
import type { BrokerTls } from '@confbus/core';
import { loadTlsMaterial } from '@confbus/core/internal';

export async function brokerTlsOptions(tls: BrokerTls, cwd = process.cwd()): Promise<ConnectionOptions> {
  const material = await loadTlsMaterial(tls.sources, { read: readFile, cwd });
  const version = tls.protocol as SecureVersion | undefined;
  return {
    ...(material.key === undefined ? {} : { key: material.key }),
    ...(material.cert === undefined ? {} : { cert: material.cert }),
    ...(material.ca === undefined ? {} : { ca: [...material.ca] }),
    ...(version === undefined ? {} : { minVersion: version, maxVersion: version }),
    rejectUnauthorized: tls.validateServerCertificate,
    // verify-hostname=false: the chain is still checked, only the name is not (a broker reached by IP).
    checkServerIdentity: tls.verifyHostname ? checkServerIdentity : () => undefined,
  };
}
