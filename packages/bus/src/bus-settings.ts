/** Builds BusNode options from Spring's settings (spring.cloud.bus.*, spring.rabbitmq.*); shared by server and client. */
import type { Settings } from '@confbus/core';
import type { BusLogger, BusOptions } from './bus-node.js';

export function isBusEnabled(settings: Settings): boolean {
  return settings.boolean('spring.cloud.bus.enabled');
}

/** `spring.rabbitmq.addresses` (a cluster) wins over host and port, as in Spring Boot. */
export function brokerAddresses(settings: Settings): string[] {
  const addresses = settings
    .list('spring.rabbitmq.addresses')
    .map((address) => address.replace(/^amqps?:\/\//, ''));
  if (addresses.length > 0) return addresses;
  return [`${settings.string('spring.rabbitmq.host')}:${settings.number('spring.rabbitmq.port')}`];
}

export function busOptionsFromSettings(
  settings: Settings,
  context: { busId: string; logger: BusLogger; configNames?: string[] },
): BusOptions {
  return {
    addresses: brokerAddresses(settings),
    username: settings.string('spring.rabbitmq.username'),
    password: settings.string('spring.rabbitmq.password'),
    vhost: settings.string('spring.rabbitmq.virtual-host'),
    destination: settings.string('spring.cloud.bus.destination'),
    busId: context.busId,
    ackEnabled: settings.boolean('spring.cloud.bus.ack.enabled'),
    ackDestination: settings.optionalString('spring.cloud.bus.ack.destination-service'),
    configNames: context.configNames,
    logger: context.logger,
  };
}
