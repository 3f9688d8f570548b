/**
 * The config server's health indicator settings (Spring's `spring.cloud.config.server.health.*`): whether the
 * repository takes part in the overall status, and which status it reports when nothing can be served.
 */
import { type SettingSpec, type Settings, SettingsError } from '@confbus/core';

const health = 'spring.cloud.config.server.health';

export const healthSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${health}.enabled`,
    type: 'boolean',
    default: true,
    description:
      'false: the repository no longer decides GET /actuator/health (it is still listed); readiness still waits for it',
  },
  {
    key: `${health}.down-health-status`,
    type: 'string',
    default: 'DOWN',
    aliases: [`${health}.downHealthStatus`],
    description:
      'Status the repository reports when nothing can be served, e.g. OUT_OF_SERVICE or a status of your own (HTTP 503 for DOWN and OUT_OF_SERVICE only, as Spring Boot maps them)',
  },
  {
    key: `${health}.repositories`,
    type: 'string',
    isPrefix: true,
    description:
      "repositories.<key>.name|profiles|label: environments health asks for, as Spring's ConfigServerHealthIndicator (name defaults to <key>, profiles to default, label to the default one); reported as the configServer component",
  },
];

/** One environment health asks for (`health.repositories.<key>.*`). */
export interface HealthQuery {
  /** The map key: the application when `name` is unset. */
  readonly key: string;
  readonly application: string;
  /** As written (`dev,db`); `default` when unset. */
  readonly profiles: string;
  /** Undefined: the repository's default label. */
  readonly label: string | undefined;
}

export interface HealthSettings {
  /** Whether the repository's status decides the overall status. */
  readonly enabled: boolean;
  /** The status reported in place of DOWN. */
  readonly downStatus: string;
  /** health.repositories.*, in the order configured; empty when none is. */
  readonly queries: readonly HealthQuery[];
}

export function readHealthSettings(settings: Settings): HealthSettings {
  return {
    enabled: settings.boolean(`${health}.enabled`),
    downStatus: settings.string(`${health}.down-health-status`).trim() || 'DOWN',
    queries: readHealthQueries(settings),
  };
}

const QUERY_PROPERTIES = ['name', 'profiles', 'label'] as const;

/** `health.repositories.<key>.<property>` grouped by key; YAML's `[key]` spelling of a key is accepted. */
function readHealthQueries(settings: Settings): HealthQuery[] {
  const prefix = `${health}.repositories.`;
  const byKey = new Map<string, Partial<Record<(typeof QUERY_PROPERTIES)[number], string>>>();
  for (const key of settings.keysUnder(prefix)) {
    const rest = key.slice(prefix.length);
    const dot = rest.lastIndexOf('.');
    const property = rest.slice(dot + 1) as (typeof QUERY_PROPERTIES)[number];
    if (dot <= 0 || !QUERY_PROPERTIES.includes(property)) {
      throw new SettingsError(
        `${settings.spellingOf(key)}: health.repositories.<key> takes name, profiles and label`,
        key,
        settings.sourceOf(key) ?? 'file',
      );
    }
    const name = rest.slice(0, dot).replace(/^\[(.*)\]$/, '$1');
    const value = settings.get(key);
    byKey.set(name, {
      ...byKey.get(name),
      [property]: Array.isArray(value) ? value.join(',') : String(value ?? ''),
    });
  }
  return [...byKey].map(([key, values]) => ({
    key,
    application: values.name || key,
    profiles: values.profiles || 'default',
    label: values.label || undefined,
  }));
}
