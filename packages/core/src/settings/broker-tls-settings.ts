/**
 * TLS to the bus's broker with Spring Boot's keys: `spring.rabbitmq.ssl.*` (RabbitProperties.Ssl) and
 * `spring.kafka.ssl.*` (KafkaProperties.Ssl). Both read the same stores as every other TLS endpoint (core's
 * tls-material.ts); the transport loads them when it starts.
 */
import type { TlsSources } from '../tls/tls-material.js';
import type { SettingSpec } from './setting-spec.js';
import { SettingsError, type Settings } from './settings.js';

/** What a broker transport needs to speak TLS. */
export interface BrokerTls {
  readonly sources: TlsSources;
  /** Check that the broker's certificate names the host connected to (spring.rabbitmq.ssl.verify-hostname). */
  readonly verifyHostname: boolean;
  /** Check the broker's certificate at all (spring.rabbitmq.ssl.validate-server-certificate). */
  readonly validateServerCertificate: boolean;
  /** The one TLS version to speak (spring.rabbitmq.ssl.algorithm, e.g. TLSv1.3); undefined: Node's range. */
  readonly protocol: string | undefined;
}

const rabbit = 'spring.rabbitmq.ssl';

export const rabbitTlsSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${rabbit}.enabled`,
    type: 'boolean',
    description:
      'TLS to RabbitMQ (default port 5671); default: on when spring.rabbitmq.addresses are amqps://, off otherwise',
  },
  ...storeSpecs(rabbit, 'RabbitMQ', 'JKS'),
  {
    key: `${rabbit}.verify-hostname`,
    type: 'boolean',
    default: true,
    aliases: [`${rabbit}.verifyHostname`],
    description: "Check that the broker's certificate names the host connected to",
  },
  {
    key: `${rabbit}.validate-server-certificate`,
    type: 'boolean',
    default: true,
    aliases: [`${rabbit}.validateServerCertificate`],
    description: "Check the broker's certificate against the trust store (false: tests only)",
  },
  {
    key: `${rabbit}.algorithm`,
    type: 'string',
    description: 'The TLS version to use, e.g. TLSv1.3 (default: TLSv1.2 or TLSv1.3, as negotiated)',
  },
];

/** key-store, key-store-type, key-store-password, trust-store, trust-store-type, trust-store-password. */
export function storeSpecs(prefix: string, peer: string, trustStoreDefaultType: string): SettingSpec[] {
  return [
    {
      key: `${prefix}.key-store`,
      type: 'string',
      aliases: [`${prefix}.keyStore`],
      description: `Key store (PKCS12, JKS or PEM) of the client certificate ${peer} asks for`,
    },
    {
      key: `${prefix}.key-store-type`,
      type: 'string',
      default: 'PKCS12',
      aliases: [`${prefix}.keyStoreType`],
      description: 'PKCS12 or JKS (recognised from the content either way)',
    },
    {
      key: `${prefix}.key-store-password`,
      type: 'string',
      secret: true,
      aliases: [`${prefix}.keyStorePassword`],
      description: 'Password of the key store',
    },
    {
      key: `${prefix}.trust-store`,
      type: 'string',
      aliases: [`${prefix}.trustStore`],
      description: `Trust store (PKCS12, JKS or PEM CA certificates) of ${peer}'s certificate; default Node's roots`,
    },
    {
      key: `${prefix}.trust-store-type`,
      type: 'string',
      default: trustStoreDefaultType,
      aliases: [`${prefix}.trustStoreType`],
      description: 'JKS or PKCS12 (recognised from the content either way)',
    },
    {
      key: `${prefix}.trust-store-password`,
      type: 'string',
      secret: true,
      aliases: [`${prefix}.trustStorePassword`],
      description: 'Password of the trust store',
    },
  ];
}

/** How a family of settings names its stores, beyond Spring Boot's usual `key-store` / `trust-store`. */
export interface StoreKeyNames {
  /** `prefix.key-password` is the key's own password (Spring's config client, Kafka, server.ssl). */
  readonly keyPassword?: boolean;
  /** `prefix.key-alias` chooses the key entry (server.ssl). */
  readonly keyAlias?: boolean;
  /** Kafka's `key-store-location` / `trust-store-location` instead of `key-store` / `trust-store`. */
  readonly locationSuffix?: '-location';
}

/**
 * The stores `prefix.*` names (key store and trust store): one reading for every TLS endpoint (the bus's brokers,
 * the config client, the server's HTTPS listener), each declaring the keys it has with `names`.
 */
export function storeSources(settings: Settings, prefix: string, names: StoreKeyNames = {}): TlsSources {
  const value = (name: string) => settings.optionalString(`${prefix}.${name}`)?.trim() || undefined;
  const suffix = names.locationSuffix ?? '';
  const keyStore = value(`key-store${suffix}`);
  const trustStore = value(`trust-store${suffix}`);
  return {
    ...(keyStore === undefined
      ? {}
      : {
          keyStore: {
            location: keyStore,
            setting: `${prefix}.key-store${suffix}`,
            type: value('key-store-type'),
            password: settings.optionalString(`${prefix}.key-store-password`),
            ...(names.keyAlias === true
              ? { alias: value('key-alias'), aliasSetting: `${prefix}.key-alias` }
              : {}),
            ...(names.keyPassword === true
              ? { keyPassword: settings.optionalString(`${prefix}.key-password`) }
              : {}),
          },
        }),
    ...(trustStore === undefined
      ? {}
      : {
          trustStore: {
            location: trustStore,
            setting: `${prefix}.trust-store${suffix}`,
            type: value('trust-store-type'),
            password: settings.optionalString(`${prefix}.trust-store-password`),
          },
        }),
  };
}

/**
 * RabbitMQ's TLS, or undefined for a plain connection. As Spring Boot: `ssl.enabled` when set, else whether the
 * addresses are amqps://. Plain and amqps:// addresses mixed are refused (one connection setting serves all).
 */
export function readRabbitTls(
  settings: Settings,
  secureAddresses: boolean | undefined,
): BrokerTls | undefined {
  const enabledKey = `${rabbit}.enabled`;
  const enabled = settings.get(enabledKey);
  if (enabled === false && secureAddresses === true) {
    throw new SettingsError(
      `${enabledKey}=false but spring.rabbitmq.addresses are amqps://: use amqp:// addresses, or drop the setting`,
      enabledKey,
      settings.sourceOf(enabledKey) ?? 'default',
    );
  }
  if (enabled !== true && secureAddresses !== true) return undefined;
  const protocol = settings.optionalString(`${rabbit}.algorithm`)?.trim();
  if (protocol !== undefined && !/^TLSv1(\.[123])?$|^TLS$/i.test(protocol)) {
    const key = `${rabbit}.algorithm`;
    throw new SettingsError(
      `${key}: '${protocol}' is not TLS, TLSv1.2 or TLSv1.3`,
      key,
      settings.sourceOf(key) ?? 'default',
    );
  }
  return {
    sources: storeSources(settings, rabbit),
    verifyHostname: settings.boolean(`${rabbit}.verify-hostname`),
    validateServerCertificate: settings.boolean(`${rabbit}.validate-server-certificate`),
    protocol:
      protocol === undefined || /^TLS$/i.test(protocol) ? undefined : protocol.replace(/^tls/i, 'TLS'),
  };
}
