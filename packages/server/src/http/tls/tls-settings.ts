/**
 * The HTTPS listener's settings, with Spring Boot's `server.ssl.*` names, and their typed reading. As in Spring
 * Boot, setting a key store or a PEM certificate turns HTTPS on unless `server.ssl.enabled=false`; enabling it
 * without either is a start error naming the settings.
 */
import { type SettingSpec, type Settings, SettingsError } from '@confbus/core';
import { type TlsSources, storeSources } from '@confbus/core/internal';

const ssl = 'server.ssl';

export const CLIENT_AUTH_MODES = ['none', 'want', 'need'] as const;
export type ClientAuth = (typeof CLIENT_AUTH_MODES)[number];

export const serverTlsSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${ssl}.enabled`,
    type: 'boolean',
    description:
      'HTTPS on server.port; on by default once a key store or certificate is set (false turns it off), as in Spring Boot',
  },
  {
    key: `${ssl}.key-store`,
    type: 'string',
    aliases: [`${ssl}.keyStore`],
    description: 'Key store (PKCS12 or JKS; a PEM file with key and chain also works) holding the server key',
  },
  {
    key: `${ssl}.key-store-password`,
    type: 'string',
    secret: true,
    aliases: [`${ssl}.keyStorePassword`],
    description: 'Password of the key store',
  },
  {
    key: `${ssl}.key-store-type`,
    type: 'string',
    default: 'PKCS12',
    aliases: [`${ssl}.keyStoreType`],
    description: 'PKCS12 or JKS (PEM content is recognised whatever this says)',
  },
  {
    key: `${ssl}.key-alias`,
    type: 'string',
    aliases: [`${ssl}.keyAlias`],
    description: 'The key entry to serve; required when the key store holds several',
  },
  {
    key: `${ssl}.key-password`,
    type: 'string',
    secret: true,
    aliases: [`${ssl}.keyPassword`],
    description:
      'Password of the key entry (JKS; default the store password), or of an encrypted PEM private key',
  },
  {
    key: `${ssl}.certificate`,
    type: 'string',
    description: 'PEM certificate chain (leaf first), used with server.ssl.certificate-private-key',
  },
  {
    key: `${ssl}.certificate-private-key`,
    type: 'string',
    aliases: [`${ssl}.certificatePrivateKey`],
    description: 'PEM private key of server.ssl.certificate',
  },
  {
    key: `${ssl}.trust-certificate`,
    type: 'string',
    aliases: [`${ssl}.trustCertificate`],
    description: 'PEM certificates of the CAs whose client certificates are accepted (mutual TLS)',
  },
  {
    key: `${ssl}.trust-store`,
    type: 'string',
    aliases: [`${ssl}.trustStore`],
    description: 'Trust store (PKCS12, JKS or PEM) of the CAs whose client certificates are accepted',
  },
  {
    key: `${ssl}.trust-store-password`,
    type: 'string',
    secret: true,
    aliases: [`${ssl}.trustStorePassword`],
    description: 'Password of the trust store',
  },
  {
    key: `${ssl}.trust-store-type`,
    type: 'string',
    default: 'PKCS12',
    aliases: [`${ssl}.trustStoreType`],
    description: 'PKCS12 or JKS (PEM content is recognised whatever this says)',
  },
  {
    key: `${ssl}.client-auth`,
    type: 'string',
    default: 'none',
    aliases: [`${ssl}.clientAuth`],
    description:
      'Client certificates: none, want (asked for; requests without one still served) or need (mutual TLS: the handshake fails without a trusted one)',
  },
  {
    key: `${ssl}.enabled-protocols`,
    type: 'list',
    aliases: [`${ssl}.enabledProtocols`],
    description:
      "TLS versions accepted, e.g. TLSv1.3 or TLSv1.2,TLSv1.3 (Node takes a range: the lowest to the highest listed); default Node's (TLSv1.2 and TLSv1.3)",
  },
  {
    key: `${ssl}.ciphers`,
    type: 'list',
    description:
      "TLS 1.2 cipher suites allowed, by IANA name (as Java) or OpenSSL name; TLS 1.3 suites (TLS_AES_…) are always on; default Node's",
  },
  {
    key: 'confbus.server.ssl.reload-quiet-period',
    type: 'integer',
    default: 10000,
    min: 0,
    description:
      "Certificate files are watched and reloaded this many ms after they stop changing (Spring Boot's spring.ssl.bundle.watch.file.quiet-period); 0 = never reloaded",
  },
];

export interface ServerTlsSettings {
  readonly sources: TlsSources;
  readonly clientAuth: ClientAuth;
  readonly protocols: readonly string[];
  readonly ciphers: readonly string[];
  readonly reloadQuietPeriodMs: number;
}

/** The HTTPS settings, or undefined for plain HTTP. */
export function readServerTlsSettings(settings: Settings): ServerTlsSettings | undefined {
  const badSetting = (key: string, message: string) =>
    new SettingsError(message, key, settings.sourceOf(key) ?? 'default');
  const value = (name: string) => settings.optionalString(`${ssl}.${name}`)?.trim() || undefined;
  const keyStore = value('key-store');
  const certificate = value('certificate');
  const privateKey = value('certificate-private-key');
  const enabled = settings.get(`${ssl}.enabled`);
  if (enabled === false) return undefined;
  if (keyStore === undefined && certificate === undefined && privateKey === undefined) {
    if (enabled === true) {
      throw badSetting(
        `${ssl}.enabled`,
        `${ssl}.enabled=true needs ${ssl}.key-store, or ${ssl}.certificate with ${ssl}.certificate-private-key`,
      );
    }
    return undefined;
  }
  const clientAuth = (value('client-auth') ?? 'none').toLowerCase();
  if (!(CLIENT_AUTH_MODES as readonly string[]).includes(clientAuth)) {
    throw badSetting(`${ssl}.client-auth`, `${ssl}.client-auth must be none, want or need`);
  }
  const trustStore = value('trust-store');
  const trustCertificate = value('trust-certificate');
  if (clientAuth !== 'none' && trustStore === undefined && trustCertificate === undefined) {
    throw badSetting(
      `${ssl}.client-auth`,
      `${ssl}.client-auth=${clientAuth} needs ${ssl}.trust-store or ${ssl}.trust-certificate (the CAs of the client certificates)`,
    );
  }
  const keyPassword = settings.optionalString(`${ssl}.key-password`);
  return {
    sources: {
      ...storeSources(settings, ssl, { keyPassword: true, keyAlias: true }),
      ...(certificate === undefined
        ? {}
        : { certificate: { location: certificate, setting: `${ssl}.certificate` } }),
      ...(privateKey === undefined
        ? {}
        : {
            privateKey: {
              location: privateKey,
              setting: `${ssl}.certificate-private-key`,
              password: keyPassword,
            },
          }),
      ...(trustCertificate === undefined
        ? {}
        : { trustCertificate: { location: trustCertificate, setting: `${ssl}.trust-certificate` } }),
    },
    clientAuth: clientAuth as ClientAuth,
    protocols: settings.list(`${ssl}.enabled-protocols`),
    ciphers: settings.list(`${ssl}.ciphers`),
    reloadQuietPeriodMs: settings.number('confbus.server.ssl.reload-quiet-period'),
  };
}
