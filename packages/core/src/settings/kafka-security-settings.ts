/**
 * TLS and SASL to Kafka with Spring Boot's keys: `spring.kafka.security.protocol` (PLAINTEXT, SSL, SASL_PLAINTEXT,
 * SASL_SSL), `spring.kafka.ssl.*` (KafkaProperties.Ssl: `key-store-location`, `trust-store-location`, …) and the
 * client properties passed through `spring.kafka.properties.*`: `sasl.mechanism` (PLAIN, SCRAM-SHA-256,
 * SCRAM-SHA-512) and `sasl.jaas.config`, whose `username="…" password="…"` options are read here (the login module
 * is implied by the mechanism). `ssl.endpoint.identification.algorithm=` (empty) turns the host-name check off,
 * as in Kafka's Java client.
 */
import type { BrokerTls } from './broker-tls-settings.js';
import { storeSources, storeSpecs } from './broker-tls-settings.js';
import type { SettingSpec } from './setting-spec.js';
import { SettingsError, type Settings } from './settings.js';

export const KAFKA_SECURITY_PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;
export const KAFKA_SASL_MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

export interface KafkaSasl {
  readonly mechanism: KafkaSaslMechanism;
  readonly username: string;
  readonly password: string;
}

export interface KafkaSecurity {
  readonly tls?: BrokerTls;
  readonly sasl?: KafkaSasl;
}

const ssl = 'spring.kafka.ssl';
const properties = 'spring.kafka.properties';

export const kafkaSecuritySettingSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.kafka.security.protocol',
    type: 'string',
    default: 'PLAINTEXT',
    description:
      'PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL (SASL: PLAIN or SCRAM-SHA-256/512 through spring.kafka.properties.sasl.*)',
  },
  // Spring Kafka names the stores `*-location`; the rest as everywhere else.
  ...storeSpecs(ssl, 'Kafka', 'JKS').map((spec) =>
    spec.key.endsWith('.key-store') || spec.key.endsWith('.trust-store')
      ? { ...spec, key: `${spec.key}-location`, aliases: [`${spec.aliases?.[0]}Location`] }
      : spec,
  ),
  {
    key: `${ssl}.key-password`,
    type: 'string',
    secret: true,
    aliases: [`${ssl}.keyPassword`],
    description: 'Password of the key in the key store (default: the key store password)',
  },
  {
    key: `${ssl}.protocol`,
    type: 'string',
    description: 'The TLS version to use, e.g. TLSv1.3 (default: TLSv1.2 or TLSv1.3, as negotiated)',
  },
  {
    key: `${properties}.sasl.mechanism`,
    type: 'string',
    default: 'PLAIN',
    aliases: [`${properties}.sasl-mechanism`],
    description: 'SASL mechanism with SASL_PLAINTEXT or SASL_SSL: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512',
  },
  {
    key: `${properties}.sasl.jaas.config`,
    type: 'string',
    secret: true,
    description:
      'Kafka\'s JAAS line, e.g. org.apache.kafka.common.security.scram.ScramLoginModule required username="app" password="…"; its username and password are used',
  },
  {
    key: `${properties}.ssl.endpoint.identification.algorithm`,
    type: 'string',
    default: 'https',
    description:
      "https checks the broker certificate's host name; empty turns the check off (as Kafka's client)",
  },
];

export function readKafkaSecurity(settings: Settings): KafkaSecurity {
  const protocolKey = 'spring.kafka.security.protocol';
  const protocol = settings.string(protocolKey).trim().toUpperCase();
  const bad = (key: string, message: string) =>
    new SettingsError(message, key, settings.sourceOf(key) ?? 'default');
  if (!(KAFKA_SECURITY_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw bad(protocolKey, `${protocolKey} must be one of ${KAFKA_SECURITY_PROTOCOLS.join(', ')}`);
  }
  const tls = protocol.endsWith('SSL') ? kafkaTls(settings, bad) : undefined;
  const sasl = protocol.startsWith('SASL_') ? kafkaSasl(settings, bad) : undefined;
  return { ...(tls ? { tls } : {}), ...(sasl ? { sasl } : {}) };
}

type Bad = (key: string, message: string) => SettingsError;

function kafkaTls(settings: Settings, bad: Bad): BrokerTls {
  const value = (name: string) => settings.optionalString(`${ssl}.${name}`)?.trim() || undefined;
  const protocol = value('protocol');
  if (protocol !== undefined && !/^TLSv1\.[23]$/i.test(protocol)) {
    throw bad(`${ssl}.protocol`, `${ssl}.protocol: '${protocol}' is not TLSv1.2 or TLSv1.3`);
  }
  return {
    sources: storeSources(settings, ssl, { keyPassword: true, locationSuffix: '-location' }),
    verifyHostname:
      (settings.optionalString(`${properties}.ssl.endpoint.identification.algorithm`) ?? '') !== '',
    validateServerCertificate: true,
    protocol: protocol?.replace(/^tls/i, 'TLS'),
  };
}

function kafkaSasl(settings: Settings, bad: Bad): KafkaSasl {
  const mechanismKey = `${properties}.sasl.mechanism`;
  const mechanism = settings.string(mechanismKey).trim().toUpperCase();
  if (!(KAFKA_SASL_MECHANISMS as readonly string[]).includes(mechanism)) {
    throw bad(mechanismKey, `${mechanismKey} must be one of ${KAFKA_SASL_MECHANISMS.join(', ')}`);
  }
  const jaasKey = `${properties}.sasl.jaas.config`;
  const jaas = settings.optionalString(jaasKey);
  if (jaas === undefined) throw bad(jaasKey, `SASL needs ${jaasKey} (username="…" password="…")`);
  const options = new Map<string, string>();
  // key="value" (Java escapes \" and \\ inside), or key=value up to a space or ';'.
  for (const match of jaas.matchAll(/(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;"]+))/g)) {
    options.set(match[1]!, (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1'));
  }
  const username = options.get('username');
  const password = options.get('password');
  // Only the option names: the line holds the password.
  if (username === undefined || password === undefined) {
    throw bad(jaasKey, `${jaasKey} has no username="…" and password="…" options`);
  }
  return { mechanism: mechanism as KafkaSaslMechanism, username, password };
}
