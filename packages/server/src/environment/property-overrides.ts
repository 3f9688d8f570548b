/**
 * `spring.cloud.config.server.overrides.*`: properties the server adds to every environment it serves, as the
 * first (winning) property source, named `overrides`, after decryption — where Spring's
 * EnvironmentEncryptorEnvironmentRepository adds them. Like every setting, their `${...}` placeholders were
 * resolved against the server's own settings (settings-resolver); one the server cannot resolve, or one written
 * `\${...}`, reaches the client, which resolves it. Spring's `\{` escape is unescaped here, as Spring does. In
 * the v2 media type each value's origin is "Config server overrides", as Spring gives it.
 */
import type { Environment, Settings } from '@confbus/core';

export const OVERRIDES = 'spring.cloud.config.server.overrides';

/** The overrides in the order they were configured, keys as written. Empty when none are set. */
export function readOverrides(settings: Settings): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const key of settings.keysUnder(`${OVERRIDES}.`)) {
    const name = settings.spellingOf(key).slice(OVERRIDES.length + 1);
    const value = settings.get(key);
    overrides[name] = unescape(Array.isArray(value) ? value.join(',') : String(value ?? ''));
  }
  return overrides;
}

/** Spring's rule: `\${` becomes `${`; otherwise `\{` becomes `{`. */
function unescape(value: string): string {
  if (value.includes('\\${')) return value.split('\\${').join('${');
  if (value.includes('\\{')) return value.split('\\{').join('{');
  return value;
}

export const OVERRIDES_ORIGIN = 'Config server overrides';

export function withOverrides(environment: Environment, overrides: Record<string, string>): Environment {
  if (Object.keys(overrides).length === 0) return environment;
  const source = { name: 'overrides', source: { ...overrides }, sourceOrigin: OVERRIDES_ORIGIN };
  return { ...environment, propertySources: [source, ...environment.propertySources] };
}
