/**
 * `spring.cloud.config.server.prefix`: where Spring's config server controllers are mounted. As in Spring, the
 * environment, file-format, plain-text and encryption endpoints (`/encrypt`, `/decrypt`, `/key`) move under it;
 * the actuator endpoints, `POST /monitor` and the operator console stay where they are.
 */
import { type SettingSpec, type Settings, SettingsError } from '@confbus/core';

const PREFIX = 'spring.cloud.config.server.prefix';

export const prefixSettingSpecs: readonly SettingSpec[] = [
  {
    key: PREFIX,
    type: 'string',
    default: '',
    description:
      'Path the configuration, plain-text and encryption endpoints are served under (e.g. /config), as in Spring; actuator, /monitor and the console stay at the root',
  },
];

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
