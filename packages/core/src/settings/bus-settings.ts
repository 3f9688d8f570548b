/**
 * Reads the bus settings (busSettingSpecs: spring.cloud.bus.*, spring.rabbitmq.*, spring.kafka.*,
 * spring.cloud.stream.*, confbus.bus.*) into one typed `BusSettings`, for server and client alike, picking the
 * binder as docs/bus-kafka.md describes; @confbus/bus builds a node from it (busNodeFromSettings). Pure: the
 * client reads them at start even with the bus off, without loading @confbus/bus or a broker client.
 */
import { type BrokerTls, readRabbitTls } from './broker-tls-settings.js';
import { type BusSigningSettings, readBusSigningSettings } from './bus-signing-settings.js';
import { type KafkaSecurity, readKafkaSecurity } from './kafka-security-settings.js';
import { SettingsError, type Settings } from './settings.js';

const DEFAULT_AMQP_PORT = 5672;
const DEFAULT_AMQPS_PORT = 5671;
const DEFAULT_KAFKA_PORT = 9092;

/** Spring Cloud Stream's binder names. */
export type BusBinder = 'rabbit' | 'kafka';

export interface BrokerConnection {
  /** `host:port` entries, tried in turn. */
  readonly addresses: string[];
  readonly username: string;
  readonly password: string;
  readonly virtualHost: string;
  /** TLS (spring.rabbitmq.ssl.*, amqps:// addresses); undefined for a plain connection. */
  readonly tls?: BrokerTls;
}

/** What every bus member, server and client alike, is built from. */
export interface BusSettings {
  readonly enabled: boolean;
  /** Exchange and routing key on RabbitMQ, topic on Kafka (`springCloudBus`). */
  readonly destination: string;
  /** Explicit `spring.cloud.bus.id`; otherwise the member makes one (`app:profiles:port:random`). */
  readonly id: string | undefined;
  readonly ackEnabled: boolean;
  readonly ackDestination: string | undefined;
  /** The broker: the chosen binder's settings (with the bus off, RabbitMQ's, still checked). */
  readonly transport: BusTransportSettings;
  /** Reconnect backoff in ms (`confbus.bus.reconnect.*`). */
  readonly reconnectDelayMs: { readonly min: number; readonly max: number };
  /** How long a publish waits for the broker (`confbus.bus.publish-timeout`). */
  readonly publishTimeoutMs: number;
  /** `confbus.bus.signing.*`: whether messages are signed and checked (bus-signing-settings.ts). */
  readonly signing: BusSigningSettings;
}

/** The bus settings, read once; throws a SettingsError naming the key of a bad one. */
export function readBusSettings(settings: Settings): BusSettings {
  const enabled = isBusEnabled(settings);
  const destination = notBlank(settings, 'spring.cloud.bus.destination');
  const min = Math.max(1, settings.number('confbus.bus.reconnect.initial-interval'));
  return {
    enabled,
    destination,
    // Empty is unset (a generated id); blank is a mistake.
    id:
      settings.optionalString('spring.cloud.bus.id') === undefined
        ? undefined
        : notBlank(settings, 'spring.cloud.bus.id'),
    ackEnabled: settings.boolean('spring.cloud.bus.ack.enabled'),
    ackDestination: settings.optionalString('spring.cloud.bus.ack.destination-service'),
    // Only a bus that runs needs a binder: a conflict between unused broker settings is not an error.
    transport: enabled
      ? busTransportSettings(settings, destination)
      : { binder: 'rabbit', destination, rabbit: brokerConnection(settings) },
    reconnectDelayMs: { min, max: Math.max(min, settings.number('confbus.bus.reconnect.max-interval')) },
    publishTimeoutMs: settings.number('confbus.bus.publish-timeout'),
    signing: readBusSigningSettings(settings),
  };
}

/** A name on the broker (exchange, topic, bus id): blank would be refused by the broker or the node later. */
function notBlank(settings: Settings, key: string): string {
  const value = settings.string(key);
  if (value.trim() === '')
    throw new SettingsError(`${key} must not be blank`, key, settings.sourceOf(key) ?? 'default');
  return value;
}

export function isBusEnabled(settings: Settings): boolean {
  return settings.boolean('spring.cloud.bus.enabled');
}

const KAFKA_KEYS = ['spring.cloud.stream.kafka.binder.brokers', 'spring.kafka.bootstrap-servers'] as const;
const RABBIT_KEYS = ['spring.rabbitmq.addresses', 'spring.rabbitmq.host', 'spring.rabbitmq.port'] as const;
const BINDER_KEY = 'spring.cloud.stream.default-binder';

/**
 * Spring takes the binder on the classpath and, with both on it, insists on `spring.cloud.stream.default-binder`.
 * confbus has both, so: that key when set; else Kafka when Kafka brokers are set; RabbitMQ otherwise (as before
 * Kafka existed here). Broker settings for both and no choice is refused, as Spring refuses two binders.
 */
export function busBinder(settings: Settings): BusBinder {
  const chosen = settings.optionalString(BINDER_KEY);
  if (chosen !== undefined) {
    if (chosen === 'rabbit' || chosen === 'kafka') return chosen;
    throw new SettingsError(`${BINDER_KEY}: '${chosen}' is neither rabbit nor kafka`, BINDER_KEY, 'argument');
  }
  const kafkaKey = KAFKA_KEYS.find((key) => isSet(settings, key));
  if (kafkaKey === undefined) return 'rabbit';
  const rabbitKey = RABBIT_KEYS.find((key) => isSet(settings, key));
  if (rabbitKey !== undefined) {
    throw new SettingsError(
      `Both ${rabbitKey} and ${kafkaKey} are set: choose the bus's broker with ${BINDER_KEY}=rabbit or kafka`,
      BINDER_KEY,
      'argument',
    );
  }
  return 'kafka';
}

function isSet(settings: Settings, key: string): boolean {
  const source = settings.sourceOf(key);
  return source !== undefined && source !== 'default';
}

/**
 * As the Kafka binder: its `brokers` (host[:port], default port 9092) win, unless they are the default
 * `localhost:9092`; then Spring Boot's `spring.kafka.bootstrap-servers`; then `localhost:9092`.
 */
export function kafkaBrokers(settings: Settings): string[] {
  const binderKey = 'spring.cloud.stream.kafka.binder.brokers';
  const binder = settings.list(binderKey).map((entry) => withKafkaPort(entry, binderKey));
  if (binder.length > 0 && !(binder.length === 1 && binder[0] === `localhost:${DEFAULT_KAFKA_PORT}`))
    return binder;
  const bootKey = 'spring.kafka.bootstrap-servers';
  const boot = settings.list(bootKey).map((entry) => withKafkaPort(entry, bootKey));
  return boot.length > 0 ? boot : [`localhost:${DEFAULT_KAFKA_PORT}`];
}

function withKafkaPort(entry: string, key: string): string {
  const address = entry.includes(':') ? entry : `${entry}:${DEFAULT_KAFKA_PORT}`;
  if (!/^[^\s:/@]+:\d+$/.test(address)) {
    throw new SettingsError(`${key}: '${entry}' is not host[:port]`, key, 'argument');
  }
  return address;
}

/**
 * `spring.rabbitmq.addresses` (a cluster) wins over host and port, as in Spring Boot; its entries may be
 * `host[:port]` or `amqp://user:password@host:port/vhost`, and credentials or vhost in a URL win.
 */
export function brokerConnection(settings: Settings): BrokerConnection {
  let username = settings.string('spring.rabbitmq.username');
  let password = settings.string('spring.rabbitmq.password');
  let virtualHost = settings.string('spring.rabbitmq.virtual-host');
  const listed = settings.list('spring.rabbitmq.addresses');
  const parsed = listed.map((entry) => parseAddress(entry));
  const secure = new Set(parsed.map((address) => address.secure));
  if (secure.size > 1) {
    throw new SettingsError(
      'spring.rabbitmq.addresses mixes amqp:// and amqps:// addresses: TLS is one setting for every node',
      'spring.rabbitmq.addresses',
      settings.sourceOf('spring.rabbitmq.addresses') ?? 'default',
    );
  }
  const tls = readRabbitTls(settings, parsed.length > 0 ? parsed[0]!.secure : undefined);
  // As Spring Boot: with TLS on and no port given, 5671.
  const port =
    tls && settings.sourceOf('spring.rabbitmq.port') === 'default'
      ? DEFAULT_AMQPS_PORT
      : settings.number('spring.rabbitmq.port');
  let addresses = [`${settings.string('spring.rabbitmq.host')}:${port}`];
  if (parsed.length > 0) {
    addresses = [];
    for (const entry of parsed) {
      addresses.push(entry.address ?? `${entry.host}:${tls ? DEFAULT_AMQPS_PORT : DEFAULT_AMQP_PORT}`);
      if (entry.username !== undefined) username = entry.username;
      if (entry.password !== undefined) password = entry.password;
      if (entry.virtualHost !== undefined) virtualHost = entry.virtualHost;
    }
  }
  return { addresses, username, password, virtualHost, ...(tls ? { tls } : {}) };
}

export interface KafkaBusSettings {
  /** Bootstrap brokers, `host:port`. */
  readonly brokers: readonly string[];
  readonly autoCreateTopics: boolean;
  readonly replicationFactor: number;
  /** TLS and SASL (spring.kafka.security.protocol and friends); absent: PLAINTEXT. */
  readonly security?: KafkaSecurity;
}

export function kafkaBusSettings(settings: Settings): KafkaBusSettings {
  return {
    brokers: kafkaBrokers(settings),
    autoCreateTopics: settings.boolean('spring.cloud.stream.kafka.binder.auto-create-topics'),
    replicationFactor: settings.number('spring.cloud.stream.kafka.binder.replication-factor'),
    ...withSecurity(readKafkaSecurity(settings)),
  };
}

/** What a transport is built from: the chosen binder's broker settings and the destination. */
export type BusTransportSettings =
  | { readonly binder: 'rabbit'; readonly destination: string; readonly rabbit: BrokerConnection }
  | { readonly binder: 'kafka'; readonly destination: string; readonly kafka: KafkaBusSettings };

/** Reads only the chosen binder's settings, so a stale setting of the other broker cannot fail the start. */
export function busTransportSettings(settings: Settings, destination: string): BusTransportSettings {
  return busBinder(settings) === 'kafka'
    ? { binder: 'kafka', destination, kafka: kafkaBusSettings(settings) }
    : { binder: 'rabbit', destination, rabbit: brokerConnection(settings) };
}

interface ParsedAddress {
  /** `host:port`, or only the host when no port was written (the default depends on TLS). */
  address?: string;
  host: string;
  /** amqps:// */
  secure: boolean;
  username?: string;
  password?: string;
  virtualHost?: string;
}

function parseAddress(entry: string): ParsedAddress {
  if (!/^amqps?:\/\//i.test(entry)) {
    if (!/^[^\s:/@]+(:\d+)?$/.test(entry)) throw badAddress(entry);
    const [host = entry] = entry.split(':');
    return { host, secure: false, ...(entry.includes(':') ? { address: entry } : {}) };
  }
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw badAddress(entry);
  }
  const secure = url.protocol.toLowerCase() === 'amqps:';
  const result: ParsedAddress = {
    host: url.hostname,
    secure,
    address: `${url.hostname}:${url.port || (secure ? DEFAULT_AMQPS_PORT : DEFAULT_AMQP_PORT)}`,
  };
  if (url.username) result.username = decodeURIComponent(url.username);
  if (url.password) result.password = decodeURIComponent(url.password);
  if (url.pathname.length > 1) result.virtualHost = decodeURIComponent(url.pathname.slice(1));
  return result;
}

function badAddress(entry: string): SettingsError {
  // Only the shape is named: the entry may hold a password.
  const shown = entry.replace(/\/\/[^@/]*@/, '//******@');
  return new SettingsError(
    `spring.rabbitmq.addresses: '${shown}' is neither host[:port] nor amqp://[user:password@]host[:port][/vhost]`,
    'spring.rabbitmq.addresses',
    'argument',
  );
}

function withSecurity(security: KafkaSecurity): { security?: KafkaSecurity } {
  return security.tls === undefined && security.sasl === undefined ? {} : { security };
}
