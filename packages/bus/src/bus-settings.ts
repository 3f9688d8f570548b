/**
 * Reads Spring's broker and bus settings (spring.rabbitmq.*, spring.cloud.bus.*) for server and client alike.
 */
import { type Settings, SettingsError } from '@confbus/core';
import type { BusLogger, BusOptions } from './bus-node.js';

const DEFAULT_AMQP_PORT = 5672;

export interface BrokerConnection {
  /** `host:port` entries, tried in turn. */
  readonly addresses: string[];
  readonly username: string;
  readonly password: string;
  readonly virtualHost: string;
}

export function isBusEnabled(settings: Settings): boolean {
  return settings.boolean('spring.cloud.bus.enabled');
}

/**
 * `spring.rabbitmq.addresses` (a cluster) wins over host and port, as in Spring Boot; its entries may be
 * `host[:port]` or `amqp://user:password@host:port/vhost`, and credentials or vhost in a URL win.
 */
export function brokerConnection(settings: Settings): BrokerConnection {
  let username = settings.string('spring.rabbitmq.username');
  let password = settings.string('spring.rabbitmq.password');
  let virtualHost = settings.string('spring.rabbitmq.virtual-host');
  let addresses = [`${settings.string('spring.rabbitmq.host')}:${settings.number('spring.rabbitmq.port')}`];
  const listed = settings.list('spring.rabbitmq.addresses');
  if (listed.length > 0) {
    addresses = [];
    for (const entry of listed) {
      const parsed = parseAddress(entry);
      addresses.push(parsed.address);
      if (parsed.username !== undefined) username = parsed.username;
      if (parsed.password !== undefined) password = parsed.password;
      if (parsed.virtualHost !== undefined) virtualHost = parsed.virtualHost;
    }
  }
  return { addresses, username, password, virtualHost };
}

export function busOptionsFromSettings(
  settings: Settings,
  context: { busId: string; logger: BusLogger; configNames?: string[] },
): BusOptions {
  const broker = brokerConnection(settings);
  return {
    addresses: broker.addresses,
    username: broker.username,
    password: broker.password,
    vhost: broker.virtualHost,
    destination: settings.string('spring.cloud.bus.destination'),
    busId: context.busId,
    ackEnabled: settings.boolean('spring.cloud.bus.ack.enabled'),
    ackDestination: settings.optionalString('spring.cloud.bus.ack.destination-service'),
    configNames: context.configNames,
    logger: context.logger,
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

function badAddress(entry: string): SettingsError {
  // Only the shape is named: the entry may hold a password.
  const shown = entry.replace(/\/\/[^@/]*@/, '//******@');
  return new SettingsError(
    `spring.rabbitmq.addresses: '${shown}' is neither host[:port] nor amqp://[user:password@]host[:port][/vhost]`,
    'spring.rabbitmq.addresses',
    'argument',
  );
}
