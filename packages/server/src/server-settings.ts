/**
 * Every setting the config server understands, with Spring's names and defaults: each area declares its own
 * beside its code (`<area>/<area>-settings.ts`, with the typed reader), assembled here in the order the settings
 * table shows them.
 */
import {
  type ResolveOptions,
  type SettingSpec,
  type Settings,
  type SettingsInput,
  busSettingSpecs,
  resolveSettings,
  settingsFileSpecs,
} from '@confbus/core';
import { applicationNameSettingSpecs, refreshEventSettingSpecs } from './bus/bus-settings.js';
import { consoleSettingSpecs } from './console/console-settings.js';
import { serverEncryptionSettingSpecs } from './encryption/encryption-settings.js';
import {
  cacheAndFileLimitSettingSpecs,
  emptyAndResourceSettingSpecs,
  overrideSettingSpecs,
} from './environment/environment-settings.js';
import { gateSettingSpecs } from './gate/gate-settings.js';
import { healthSettingSpecs } from './health/health-settings.js';
import { serverTlsSettingSpecs } from './http/tls/tls-settings.js';
import {
  accessLogSettingSpecs,
  listenSettingSpecs,
  prefixSettingSpecs,
  requestLimitSettingSpecs,
} from './http/http-settings.js';
import { monitorSettingSpecs } from './monitor/monitor-settings.js';
import { nativeSettingSpecs } from './native/native-settings.js';
import { jdbcSettingSpecs } from './jdbc/jdbc-settings.js';
import { redisSettingSpecs } from './redis/redis-settings.js';
import { compositeSettingSpecs } from './repositories/composite-settings.js';
import { gitSettingSpecs, placeholderRepositorySettingSpecs } from './repositories/git-settings.js';
import { securitySettingSpecs } from './security/security-settings.js';
import { auditSettingSpecs } from './audit/audit-settings.js';
import { sourceSettingSpecs } from './settings/source-settings.js';
import { watchSettingSpecs } from './watch/watch-settings.js';
import { rolloutSettingSpecs } from './rollouts/rollout-settings.js';
import { warmUpSettingSpecs } from './support/next-tick-warm-up.js';
import { unsupportedSpringServerSettings } from './settings/unsupported-spring-settings.js';

export const serverSettingSpecs: readonly SettingSpec[] = [
  ...settingsFileSpecs,
  ...listenSettingSpecs,
  ...serverTlsSettingSpecs,
  ...applicationNameSettingSpecs,
  ...prefixSettingSpecs,
  ...gitSettingSpecs,
  ...sourceSettingSpecs,
  ...nativeSettingSpecs,
  ...jdbcSettingSpecs,
  ...redisSettingSpecs,
  ...compositeSettingSpecs,
  ...overrideSettingSpecs,
  ...placeholderRepositorySettingSpecs,
  ...emptyAndResourceSettingSpecs,
  ...cacheAndFileLimitSettingSpecs,
  ...accessLogSettingSpecs,
  ...requestLimitSettingSpecs,
  ...warmUpSettingSpecs,
  ...refreshEventSettingSpecs,
  ...securitySettingSpecs,
  ...auditSettingSpecs,
  ...healthSettingSpecs,
  ...serverEncryptionSettingSpecs,
  ...busSettingSpecs,
  ...monitorSettingSpecs,
  ...gateSettingSpecs,
  ...consoleSettingSpecs,
  ...watchSettingSpecs,
  ...rolloutSettingSpecs,
];

/** The server's settings from arguments, environment and settings file, Spring's unsupported keys named. */
export function resolveServerSettings(
  input: SettingsInput,
  options: Pick<ResolveOptions, 'unknownKeys'> = { unknownKeys: 'error' },
): Settings {
  return resolveSettings(serverSettingSpecs, input, {
    ...options,
    unsupported: unsupportedSpringServerSettings,
  });
}
