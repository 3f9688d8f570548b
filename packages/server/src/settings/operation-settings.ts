/** Access log, basic auth, webhooks and the console (docs/operations.md, docs/console.md); the log format is core's. */
import type { SettingSpec } from '@confbus/core';
import { WEBHOOK_SECRET_HOSTS } from '../monitor/webhook-signature.js';

/** The longest console interval: setInterval fires at once, repeatedly, beyond 2^31 ms (24.8 days). */
const ONE_DAY_SECONDS = 86_400;

export const loggingSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.logging.access-log',
    type: 'boolean',
    default: false,
    description: 'Log one line per answered request (method, URL, status, milliseconds, remote address)',
  },
];

export const securitySettingSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.security.user.name',
    type: 'string',
    default: 'user',
    description: 'HTTP basic auth user (only used when spring.security.user.password is set)',
  },
  {
    key: 'spring.security.user.password',
    type: 'string',
    secret: true,
    description: 'HTTP basic auth password; when set, every endpoint needs it except the open ones below',
  },
  {
    key: 'confbus.security.health-open',
    type: 'boolean',
    default: true,
    description: 'GET /actuator/health answers without credentials (for load balancers)',
  },
  {
    key: 'confbus.security.monitor-open',
    type: 'boolean',
    default: true,
    description: 'POST /monitor answers without credentials (webhooks authenticate with their own secrets)',
  },
];

export const monitorAndConsoleSettingSpecs: readonly SettingSpec[] = [
  ...WEBHOOK_SECRET_HOSTS.map((host): SettingSpec => ({
    key: `confbus.monitor.${host}.secret`,
    type: 'string',
    secret: true,
    description: `Webhook secret for ${host} pushes to /monitor; when set, a missing or wrong signature gets 401`,
  })),
  {
    key: 'confbus.monitor.require-signature',
    type: 'boolean',
    default: false,
    description:
      'Reject /monitor requests that carry no verifiable signature (form posts, hosts without a secret)',
  },
  {
    key: 'confbus.monitor.allow-unsigned',
    type: 'boolean',
    default: false,
    description:
      'When a secret is set for any host, still accept /monitor requests that cannot be verified (form posts, simple bodies, hosts without a secret)',
  },
  {
    key: 'confbus.monitor.max-files',
    type: 'integer',
    default: 100,
    description:
      'Changed files (and guessed services) /monitor announces one by one; beyond, one refresh for every service (*)',
  },
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
