/**
 * `server.ssl.enabled-protocols` and `server.ssl.ciphers` as Node's TLS options. Java names TLS 1.2 suites by
 * their IANA names (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256) and Node (OpenSSL) by its own
 * (ECDHE-RSA-AES128-GCM-SHA256). No maintained npm package maps one to the other, so the few rules that cover
 * the suites OpenSSL still offers are written here; every result is checked against tls.getCiphers(), so a name
 * that maps to nothing real is a start error naming the setting, never a silently weaker list.
 */
import { getCiphers, type SecureVersion } from 'node:tls';
import { SettingsError } from '@confbus/core';

const VERSIONS: readonly SecureVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

export interface ProtocolOptions {
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
  ciphers?: string;
}

export function protocolOptions(protocols: readonly string[], ciphers: readonly string[]): ProtocolOptions {
  const options: ProtocolOptions = {};
  if (protocols.length > 0) {
    const indexes = protocols.map((name) => {
      const index = VERSIONS.findIndex((version) => version.toLowerCase() === name.trim().toLowerCase());
      if (index < 0) {
        throw new SettingsError(
          `server.ssl.enabled-protocols: '${name}' is not a TLS version (${VERSIONS.join(', ')})`,
          'server.ssl.enabled-protocols',
          'default',
        );
      }
      return index;
    });
    options.minVersion = VERSIONS[Math.min(...indexes)]!;
    options.maxVersion = VERSIONS[Math.max(...indexes)]!;
  }
  if (ciphers.length > 0) {
    const known = new Set(getCiphers().map((name) => name.toUpperCase()));
    options.ciphers = ciphers
      .map((name) => {
        const openssl = openSslCipherName(name.trim());
        if (openssl === undefined || !known.has(openssl.toUpperCase())) {
          throw new SettingsError(
            `server.ssl.ciphers: '${name}' is not a cipher suite this Node.js offers (give IANA names as Java does, or OpenSSL names)`,
            'server.ssl.ciphers',
            'default',
          );
        }
        return openssl;
      })
      .join(':');
  }
  return options;
}

const KEY_EXCHANGES: Readonly<Record<string, string>> = {
  ECDHE_RSA: 'ECDHE-RSA-',
  ECDHE_ECDSA: 'ECDHE-ECDSA-',
  DHE_RSA: 'DHE-RSA-',
  RSA: '',
};

/** The OpenSSL name of an IANA TLS 1.2 suite; TLS 1.3 and OpenSSL names pass unchanged. */
export function openSslCipherName(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (/^TLS_(AES|CHACHA20)_/.test(upper)) return upper; // TLS 1.3: the same name in both worlds
  const iana = /^(?:TLS|SSL)_([A-Z0-9_]+?)_WITH_([A-Z0-9_]+?)_(SHA|SHA256|SHA384)$/.exec(upper);
  if (iana === null) return name.includes('_') ? undefined : upper;
  const [, exchange, cipher, mac] = iana as unknown as [string, string, string, string];
  const prefix = KEY_EXCHANGES[exchange];
  if (prefix === undefined) return undefined;
  const gcm = /^AES_(128|256)_GCM$/.exec(cipher);
  if (gcm) return `${prefix}AES${gcm[1]}-GCM-${mac}`;
  if (cipher === 'CHACHA20_POLY1305') return `${prefix}CHACHA20-POLY1305`;
  const cbc = /^AES_(128|256)_CBC$/.exec(cipher);
  if (cbc) return `${prefix}AES${cbc[1]}-${mac}`;
  return undefined;
}
