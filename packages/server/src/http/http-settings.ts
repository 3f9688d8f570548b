/**
 * The HTTP side's settings, read once: where the server listens, the prefix Spring's endpoints are mounted
 * under (`spring.cloud.config.server.prefix`: the environment, file-format, plain-text and encryption endpoints
 * move under it as in Spring; the actuator, `POST /monitor` and the console stay at the root), the request
 * limits, and the access log.
 */
import { type SettingSpec, type Settings, SettingsError } from '@confbus/core';
import type { RequestLimits } from './request-limits.js';

const PREFIX = 'spring.cloud.config.server.prefix';

export const listenSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'server.port',
    type: 'integer',
    default: 8888,
    min: 0,
    max: 65535,
    description: 'HTTP port (0 = any free port)',
  },
  { key: 'server.address', type: 'string', default: '0.0.0.0', description: 'Interface to listen on' },
];

export const prefixSettingSpecs: readonly SettingSpec[] = [
  {
    key: PREFIX,
    type: 'string',
    default: '',
    description:
      'Path the configuration, plain-text and encryption endpoints are served under (e.g. /config), as in Spring; actuator, /monitor and the console stay at the root',
  },
];

export const requestLimitSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.server.max-url-length',
    type: 'integer',
    default: 2048,
    description: 'Longest request URL accepted (414 beyond)',
  },
  {
    key: 'confbus.server.max-body-bytes',
    type: 'integer',
    default: 1048576,
    description: 'Largest request body accepted, e.g. a webhook (413 beyond)',
  },
  {
    key: 'confbus.server.max-header-bytes',
    type: 'integer',
    default: 16384,
    description: 'Largest request line plus headers accepted, in bytes (431 beyond)',
  },
];

export const accessLogSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.logging.access-log',
    type: 'boolean',
    default: false,
    description: 'Log one line per answered request (method, URL, status, milliseconds, remote address)',
  },
];

export interface HttpSettings {
  readonly port: number;
  readonly address: string;
  /** `''` for none, else `/a[/b]`. */
  readonly prefix: string;
  readonly limits: RequestLimits;
  /** One line per answered request. */
  readonly accessLog: boolean;
}

export function readHttpSettings(settings: Settings): HttpSettings {
  return {
    port: settings.number('server.port'),
    address: settings.string('server.address'),
    prefix: readRoutePrefix(settings),
    limits: {
      maxUrlLength: settings.number('confbus.server.max-url-length'),
      maxBodyBytes: settings.number('confbus.server.max-body-bytes'),
      maxHeaderBytes: settings.number('confbus.server.max-header-bytes'),
    },
    accessLog: settings.boolean('confbus.logging.access-log'),
  };
}

/** Plain path segments, so a prefix matches the URL as written and never needs decoding. */
const SEGMENTS = /^(\/[A-Za-z0-9._~-]+)+$/;
/** First segments that belong to other endpoints: a prefix there would hide them or be hidden. */
const RESERVED = ['actuator', '-'];

/** The prefix as routes take it: `''` for none, else `/a[/b]` (Spring's `config` and `/config/` agree). */
export function readRoutePrefix(settings: Settings): string {
  const written = settings.string(PREFIX).trim();
  const prefix = `/${written.replace(/^\/+|\/+$/g, '')}`;
  if (prefix === '/') return '';
  const source = settings.sourceOf(PREFIX) ?? 'default';
  if (!SEGMENTS.test(prefix)) {
    throw new SettingsError(
      `Setting '${PREFIX}' from ${source}: '${written}' must be a path of plain segments (letters, digits, '.', '_', '~', '-'), e.g. /config`,
      PREFIX,
      source,
    );
  }
  const first = prefix.split('/')[1] ?? '';
  if (RESERVED.includes(first) || prefix.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new SettingsError(
      `Setting '${PREFIX}' from ${source}: '${written}' would overlap /actuator or the console (/-/); choose another path`,
      PREFIX,
      source,
    );
  }
  return prefix;
}
