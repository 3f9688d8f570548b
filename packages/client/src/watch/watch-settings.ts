/** The client's watch stream settings (docs/watch.md): when it watches, and how it reconnects. */
import type { SettingSpec, Settings } from '@confbus/core';

export const watchSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.client.watch.enabled',
    type: 'boolean',
    default: true,
    description:
      "Follow the config server's watch stream (GET /-/watch/…) when the bus is disabled: changes arrive within moments with no broker; the safety-net poll stays",
  },
  {
    key: 'confbus.client.watch.with-bus',
    type: 'boolean',
    default: false,
    description:
      'Follow the watch stream even with the bus enabled (each change then arrives twice and is applied once)',
  },
  {
    key: 'confbus.client.watch.reconnect-initial',
    type: 'integer',
    default: 1000,
    min: 10,
    max: 3_600_000,
    description:
      'Ceiling in ms of the first reconnect delay after the stream broke (the delay is random below it, doubling per failed attempt)',
  },
  {
    key: 'confbus.client.watch.reconnect-max',
    type: 'integer',
    default: 30_000,
    min: 10,
    max: 3_600_000,
    description: 'Ceiling in ms of any reconnect delay (random below it)',
  },
  {
    key: 'confbus.client.watch.idle-timeout',
    type: 'integer',
    default: 60_000,
    min: 1000,
    max: 86_400_000,
    description:
      "Reconnect when nothing (not even a heartbeat) arrived for this many ms: a proxy that dropped the connection silently; keep it above the server's heartbeat interval",
  },
];

export interface ClientWatchSettings {
  readonly enabled: boolean;
  readonly withBus: boolean;
  readonly reconnectInitial: number;
  readonly reconnectMax: number;
  readonly idleTimeout: number;
}

export function readClientWatchSettings(settings: Settings): ClientWatchSettings {
  return {
    enabled: settings.boolean('confbus.client.watch.enabled'),
    withBus: settings.boolean('confbus.client.watch.with-bus'),
    reconnectInitial: settings.number('confbus.client.watch.reconnect-initial'),
    reconnectMax: settings.number('confbus.client.watch.reconnect-max'),
    idleTimeout: settings.number('confbus.client.watch.idle-timeout'),
  };
}
