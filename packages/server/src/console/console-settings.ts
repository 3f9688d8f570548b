/** The operator console's settings (docs/console.md), read once. */
import type { SettingSpec, Settings } from '@confbus/core';

/** The longest console interval: setInterval fires at once, repeatedly, beyond 2^31 ms (24.8 days). */
const ONE_DAY_SECONDS = 86_400;

export const consoleSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.console.enabled',
    type: 'boolean',
    default: true,
    description: 'Serve the operator console at /-/console/ and its JSON API at /-/console/api/',
  },
  {
    key: 'confbus.console.max-event-streams',
    type: 'integer',
    default: 64,
    min: 1,
    max: 10_000,
    description: 'Most console live-update streams (server-sent events) open at once (503 beyond)',
  },
  {
    key: 'confbus.console.max-event-streams-per-client',
    type: 'integer',
    default: 8,
    min: 1,
    max: 10_000,
    description:
      'Most console live-update streams one client holds (429 beyond); a client is its source address, with basic auth on also its user. Behind a reverse proxy every operator shares its address: raise it there',
  },
  {
    key: 'confbus.console.allowed-hosts',
    type: 'list',
    default: [],
    description:
      'Host names console actions are accepted under besides localhost, IP addresses and server.address (a guard against DNS rebinding; 403 otherwise): the public names of the server, `.example.com` for a domain and its subdomains, `*` for any',
  },
  {
    key: 'confbus.console.watch-interval',
    type: 'integer',
    default: 10,
    min: 0, // 0 = no checks
    max: ONE_DAY_SECONDS,
    description:
      'Seconds between upstream checks while a console is open, so a push shows without a webhook (0 = none; never when refresh-rate < 0)',
  },
  {
    key: 'confbus.console.presence-interval',
    type: 'integer',
    default: 60,
    // Each request makes every node on the bus answer; below a few seconds that is a flood, and at 0 the fleet
    // would expire every instance at once (three intervals of silence).
    min: 5,
    max: ONE_DAY_SECONDS,
    description:
      'Seconds between presence requests on the bus; an instance not heard from for three intervals leaves the fleet view',
  },
];

export interface ConsoleSettings {
  readonly enabled: boolean;
  /** Seconds between upstream checks while a console is open (0: none). */
  readonly watchIntervalSeconds: number;
  readonly presenceIntervalSeconds: number;
  readonly maxEventStreams: number;
  readonly maxEventStreamsPerClient: number;
  readonly allowedHosts: readonly string[];
}

export function readConsoleSettings(settings: Settings): ConsoleSettings {
  return {
    enabled: settings.boolean('confbus.console.enabled'),
    watchIntervalSeconds: settings.number('confbus.console.watch-interval'),
    presenceIntervalSeconds: settings.number('confbus.console.presence-interval'),
    maxEventStreams: settings.number('confbus.console.max-event-streams'),
    maxEventStreamsPerClient: settings.number('confbus.console.max-event-streams-per-client'),
    allowedHosts: settings.list('confbus.console.allowed-hosts'),
  };
}
