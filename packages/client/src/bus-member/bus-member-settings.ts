/**
 * The client's bus settings: Spring's `spring.cloud.bus.*`, `spring.rabbitmq.*` and Kafka keys (declared in
 * @confbus/core's busSettingSpecs and read by its readBusSettings, as the server reads them) plus what only a
 * client member reads: Spring's command switches and trace, and confbus's ack routing key and refresh spread.
 */
import {
  type BusSettings,
  type SettingSpec,
  type Settings,
  SettingsError,
  readBusSettings,
} from '@confbus/core';
import { ConfigClientError } from '../errors.js';

export const clientBusSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.cloud.bus.refresh.enabled',
    type: 'boolean',
    default: true,
    description:
      "Refresh this node for bus refresh events addressed to it (and catch up after a broker outage); false: they are acked, not carried out, as Spring's RefreshListener is switched off",
  },
  {
    key: 'spring.cloud.bus.env.enabled',
    type: 'boolean',
    default: true,
    description:
      'Apply busenv (EnvironmentChangeRemoteApplicationEvent) values addressed to this node; false: acked, not applied',
  },
  {
    key: 'spring.cloud.bus.shutdown.enabled',
    type: 'boolean',
    default: true,
    description:
      'Shut this node down for a busshutdown (ShutdownRemoteApplicationEvent) addressed to it; false: acked, not carried out',
  },
  {
    key: 'spring.cloud.bus.trace.enabled',
    type: 'boolean',
    default: false,
    description:
      "Log every bus event received and every ack from another node at DEBUG, as Spring's TraceListener does",
  },

  {
    key: 'confbus.bus.ack.routing-key',
    type: 'string',
    description:
      "Beyond Spring (RabbitMQ): the routing key of this node's acks and presence announcements, default " +
      "`<spring.cloud.bus.destination>.acks`; the node's queue is then bound to the events' key only, so nodes " +
      "do not receive every other node's ack (N² deliveries per refresh), while Spring nodes and confbus " +
      "servers (bound with `#`) still see every ack. Set it to the destination itself for Spring's topology",
  },
  {
    key: 'confbus.bus.refresh.spread',
    type: 'integer',
    default: 0,
    min: 0,
    max: 600000,
    description:
      'Beyond Spring: delay the re-fetch for a bus refresh event by a random 0..spread ms, so a very large ' +
      "fleet's re-fetches reach the config servers spread over that window instead of at once; 0 = off " +
      '(servers answer a storm from cache with coalesced upstream checks; see docs/bus.md)',
  },
];

/** Which of Spring's bus commands this node carries out when addressed (`spring.cloud.bus.<command>.enabled`). */
export interface BusCommandSwitches {
  readonly refresh: boolean;
  readonly env: boolean;
  readonly shutdown: boolean;
}

/** Core's bus settings (what busNodeFromSettings builds a node from) plus what only a client member reads. */
export interface ClientBusSettings extends BusSettings {
  /** Spring's switches: an event for a command switched off is acked, not carried out. */
  readonly commands: BusCommandSwitches;
  /** `spring.cloud.bus.trace.enabled`: every event received logged at DEBUG. */
  readonly trace: boolean;
  /** Acks go out with this routing key and this node binds only the events' key (see the spec); undefined: Spring's topology. */
  readonly ackRoutingKey: string | undefined;
  /** A bus-triggered re-fetch waits a random 0..refreshSpreadMs first (0: at once). */
  readonly refreshSpreadMs: number;
}

export function readClientBusSettings(settings: Settings): ClientBusSettings {
  let bus: BusSettings;
  try {
    bus = readBusSettings(settings);
  } catch (error) {
    if (error instanceof SettingsError) throw new ConfigClientError('CONFBUS_BAD_SETTING', error.message);
    throw error;
  }
  const ackRoutingKey = settings.optionalString('confbus.bus.ack.routing-key') ?? `${bus.destination}.acks`;
  return {
    ...bus,
    commands: {
      refresh: settings.boolean('spring.cloud.bus.refresh.enabled'),
      env: settings.boolean('spring.cloud.bus.env.enabled'),
      shutdown: settings.boolean('spring.cloud.bus.shutdown.enabled'),
    },
    trace: settings.boolean('spring.cloud.bus.trace.enabled'),
    ackRoutingKey: ackRoutingKey === bus.destination ? undefined : ackRoutingKey,
    refreshSpreadMs: settings.number('confbus.bus.refresh.spread'),
  };
}
