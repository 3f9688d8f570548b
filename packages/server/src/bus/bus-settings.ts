/**
 * The server's bus settings, read once: Spring Cloud Bus's (core reads them; `spring.cloud.bus.enabled=false`
 * leaves `bus` undefined, the one place the server asks whether there is a bus), the server's own name (its bus id
 * starts with it), and how many published refresh events and acks /actuator/refresh-events remembers.
 */
import { type BusSettings, type SettingSpec, type Settings, readBusSettings } from '@confbus/core';
import { isBusEnabled } from '@confbus/core/internal';

export const applicationNameSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.application.name',
    type: 'string',
    default: 'configserver',
    description: "The server's own name (its bus id starts with it)",
  },
];

export const refreshEventSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.server.refresh-events.max-events',
    type: 'integer',
    default: 200,
    description: 'Published refresh events remembered with their acks (GET /actuator/refresh-events)',
  },
  {
    key: 'confbus.server.refresh-events.max-acks-per-event',
    type: 'integer',
    default: 10000,
    description: 'Acks (one per service) recorded per refresh event; more are counted, not kept',
  },
  {
    key: 'confbus.server.refresh-events.max-bytes',
    type: 'integer',
    default: 16777216,
    description: 'Memory for recorded acks (estimated bytes); the oldest events are forgotten first',
  },
];

export interface RefreshEventLimits {
  readonly maxEvents: number;
  readonly maxAcksPerEvent: number;
  readonly maxBytes: number;
}

export interface ServerBusSettings {
  /** Undefined when spring.cloud.bus.enabled=false: then nothing is published and /monitor answers 503. */
  readonly bus: BusSettings | undefined;
  readonly applicationName: string;
  readonly refreshEvents: RefreshEventLimits;
}

export function readServerBusSettings(settings: Settings): ServerBusSettings {
  return {
    // Read only when enabled, as the bus of a server that has none is never built: its settings cannot stop a start.
    bus: isBusEnabled(settings) ? readBusSettings(settings) : undefined,
    applicationName: settings.string('spring.application.name'),
    refreshEvents: {
      maxEvents: settings.number('confbus.server.refresh-events.max-events'),
      maxAcksPerEvent: settings.number('confbus.server.refresh-events.max-acks-per-event'),
      maxBytes: settings.number('confbus.server.refresh-events.max-bytes'),
    },
  };
}
