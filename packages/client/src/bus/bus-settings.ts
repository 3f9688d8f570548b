/**
 * The client's bus settings: Spring's `spring.cloud.bus.*` and `spring.rabbitmq.*` keys (declared in
 * @confbus/core's busSettingSpecs, shared with the server) plus confbus's reconnect backoff.
 */
import type { SettingSpec, Settings } from '@confbus/core';
import { ConfigClientError } from '../errors.js';

export const clientBusSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.bus.reconnect.initial-interval',
    type: 'integer',
    default: 1000,
    description: 'First delay in ms before reconnecting to the broker after a loss',
  },
  {
    key: 'confbus.bus.reconnect.max-interval',
    type: 'integer',
    default: 30000,
    description: 'Longest delay in ms between broker reconnect attempts',
  },
];

export interface BusSettings {
  readonly enabled: boolean;
  /** Exchange and routing key (`springCloudBus`). */
  readonly destination: string;
  /** Explicit `spring.cloud.bus.id`; otherwise `app:profiles:port:random`. */
  readonly id: string | undefined;
  readonly ackEnabled: boolean;
  readonly ackDestination: string | undefined;
  /** `host:port` entries, tried in turn. */
  readonly addresses: readonly string[];
  readonly username: string;
  readonly password: string;
  readonly virtualHost: string;
  readonly reconnectDelayMs: { readonly min: number; readonly max: number };
}

const DEFAULT_AMQP_PORT = 5672;

export function readBusSettings(settings: Settings): BusSettings {
  let username = settings.string('spring.rabbitmq.username');
  let password = settings.string('spring.rabbitmq.password');
  let virtualHost = settings.string('spring.rabbitmq.virtual-host');
  let addresses = [`${settings.string('spring.rabbitmq.host')}:${settings.number('spring.rabbitmq.port')}`];
  const listed = settings.list('spring.rabbitmq.addresses');
  if (listed.length > 0) {
    addresses = [];
    // Spring accepts `host[:port]` and `amqp://user:pass@host:port/vhost`; URL parts win, as in Boot.
    for (const entry of listed) {
      const parsed = parseAddress(entry);
      addresses.push(parsed.address);
      if (parsed.username !== undefined) username = parsed.username;
      if (parsed.password !== undefined) password = parsed.password;
      if (parsed.virtualHost !== undefined) virtualHost = parsed.virtualHost;
    }
  }
  const min = Math.max(1, settings.number('confbus.bus.reconnect.initial-interval'));
  return {
    enabled: settings.boolean('spring.cloud.bus.enabled'),
    destination: settings.string('spring.cloud.bus.destination'),
    id: settings.optionalString('spring.cloud.bus.id'),
    ackEnabled: settings.boolean('spring.cloud.bus.ack.enabled'),
    ackDestination: settings.optionalString('spring.cloud.bus.ack.destination-service'),
    addresses,
    username,
    password,
    virtualHost,
    reconnectDelayMs: { min, max: Math.max(min, settings.number('confbus.bus.reconnect.max-interval')) },
  };
}

interface ParsedAddress {
  address: string;
  username?: string;
  password?: string;
  virtualHost?: string;
}

function parseAddress(entry: string): ParsedAddress {
  if (!/^amqps?:\/\//i.test(entry)) {
    const address = entry.includes(':') ? entry : `${entry}:${DEFAULT_AMQP_PORT}`;
    if (!/^[^\s:/@]+:\d+$/.test(address)) throw badAddress(entry);
    return { address };
  }
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw badAddress(entry);
  }
  const result: ParsedAddress = { address: `${url.hostname}:${url.port || DEFAULT_AMQP_PORT}` };
  if (url.username) result.username = decodeURIComponent(url.username);
  if (url.password) result.password = decodeURIComponent(url.password);
  if (url.pathname.length > 1) result.virtualHost = decodeURIComponent(url.pathname.slice(1));
  return result;
}

function badAddress(entry: string): ConfigClientError {
  // Only the shape is named: the entry may hold a password.
  const shown = entry.replace(/\/\/[^@/]*@/, '//******@');
  return new ConfigClientError(
    'CONFBUS_BAD_SETTING',
    `spring.rabbitmq.addresses: '${shown}' is neither host[:port] nor amqp://[user:password@]host[:port][/vhost]`,
  );
}
