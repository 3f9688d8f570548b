/**
 * `spring.cloud.config.server.overrides.*`: properties the server adds to every environment it serves, as the
 * first (winning) property source, named `overrides`, after decryption — where Spring's
 * EnvironmentEncryptorEnvironmentRepository adds them. Like every setting, their `${...}` placeholders were
 * resolved against the server's own settings (settings-resolver); one the server cannot resolve, or one written
 * `\${...}`, reaches the client, which resolves it (Spring's `\{` escape is undone where they are read,
 * environment-settings.ts). In the v2 media type each value's origin is "Config server overrides", as Spring
 * gives it.
 */
import type { Environment } from '@confbus/core';

export const OVERRIDES_ORIGIN = 'Config server overrides';

export function withOverrides(environment: Environment, overrides: Record<string, string>): Environment {
  if (Object.keys(overrides).length === 0) return environment;
  const source = {
    name: 'overrides',
    source: new Map(Object.entries(overrides)),
    sourceOrigin: OVERRIDES_ORIGIN,
  };
  return { ...environment, propertySources: [source, ...environment.propertySources] };
}
