/** The watch stream's settings (docs/watch.md), read once: its bounds, heartbeat and upstream checks. */
import type { SettingSpec, Settings } from '@confbus/core';

/** The longest interval accepted: setInterval fires at once, repeatedly, beyond 2^31 ms (24.8 days). */
const ONE_DAY_SECONDS = 86_400;

export const watchSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.watch.enabled',
    type: 'boolean',
    default: true,
    description:
      'Serve GET /-/watch/{application}/{profiles}[/{label}] (server-sent events or long poll) and POST /-/watch/acks',
  },
  {
    key: 'confbus.watch.max-connections',
    type: 'integer',
    default: 20_000,
    min: 1,
    max: 1_000_000,
    description: 'Most watch connections open at once, streams and long polls together (503 beyond)',
  },
  {
    key: 'confbus.watch.max-connections-per-client',
    type: 'integer',
    default: 20_000,
    min: 1,
    max: 1_000_000,
    description:
      'Most watch connections one client holds (429 beyond); a client is its source address, with basic auth on also its user. Behind a load balancer every instance shares its address: keep it high there',
  },
  {
    key: 'confbus.watch.max-opens-per-second',
    type: 'integer',
    default: 2_000,
    min: 1,
    max: 1_000_000,
    description:
      'Watch connections accepted per second; beyond, 503 with a randomised Retry-After, so a fleet reconnecting after a restart is spread out',
  },
  {
    key: 'confbus.watch.heartbeat-interval',
    type: 'integer',
    default: 25,
    min: 1,
    max: ONE_DAY_SECONDS,
    description:
      'Seconds between heartbeat comments on an idle watch stream; below the idle timeout of every proxy in between (60 s for nginx and most load balancers)',
  },
  {
    key: 'confbus.watch.max-wait',
    type: 'integer',
    default: 60,
    min: 1,
    max: 3_600,
    description: 'Longest long poll (?wait=) in seconds; a longer wait is refused with 400',
  },
  {
    key: 'confbus.watch.max-buffered-bytes',
    type: 'integer',
    default: 16_384,
    min: 1_024,
    max: 16_777_216,
    description:
      'Bytes a watch stream may have waiting for a client that does not read before it is dropped (the client reconnects and catches up)',
  },
  {
    key: 'confbus.watch.drain-timeout',
    type: 'integer',
    default: 30,
    min: 1,
    max: ONE_DAY_SECONDS,
    description: 'Seconds a watch stream may stay full (its client not reading) before it is dropped',
  },
  {
    key: 'confbus.watch.upstream-check-interval',
    type: 'integer',
    default: 10,
    min: 0,
    max: ONE_DAY_SECONDS,
    description:
      'Seconds between upstream checks while anyone watches, so a push reaches watchers without a webhook and, with several servers and no bus, every server within this time (0 = none; never when refresh-rate < 0)',
  },
  {
    key: 'confbus.watch.max-sent-environment-bytes',
    type: 'integer',
    default: 16_384,
    min: 0,
    // A confbus client reads event-stream lines of up to 1 MiB: the body and the changed keys must fit in one.
    max: 524_288,
    description:
      'Largest environment body (bytes of its plain JSON) sent with a change to a watcher that asked for it (?include=environment), so it need not re-fetch; a larger one is announced by its keys and re-fetched (0 = never send it)',
  },
];

export interface WatchSettings {
  readonly enabled: boolean;
  readonly maxConnections: number;
  readonly maxConnectionsPerClient: number;
  readonly maxOpensPerSecond: number;
  readonly heartbeatMs: number;
  readonly maxWaitMs: number;
  readonly maxBufferedBytes: number;
  readonly drainTimeoutMs: number;
  /** 0: no periodic upstream checks. */
  readonly upstreamCheckMs: number;
  /** 0: changes never carry the environment. */
  readonly maxEnvironmentBytes: number;
}

export function readWatchSettings(settings: Settings): WatchSettings {
  const seconds = (key: string) => settings.number(key) * 1000;
  return {
    enabled: settings.boolean('confbus.watch.enabled'),
    maxConnections: settings.number('confbus.watch.max-connections'),
    maxConnectionsPerClient: settings.number('confbus.watch.max-connections-per-client'),
    maxOpensPerSecond: settings.number('confbus.watch.max-opens-per-second'),
    heartbeatMs: seconds('confbus.watch.heartbeat-interval'),
    maxWaitMs: seconds('confbus.watch.max-wait'),
    maxBufferedBytes: settings.number('confbus.watch.max-buffered-bytes'),
    drainTimeoutMs: seconds('confbus.watch.drain-timeout'),
    upstreamCheckMs: seconds('confbus.watch.upstream-check-interval'),
    maxEnvironmentBytes: settings.number('confbus.watch.max-sent-environment-bytes'),
  };
}
