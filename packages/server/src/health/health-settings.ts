/**
 * The config server's health indicator settings (Spring's `spring.cloud.config.server.health.*`): whether the
 * repository takes part in the overall status, and which status it reports when nothing can be served.
 */
import type { SettingSpec, Settings } from '@confbus/core';

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
];

export interface HealthSettings {
  /** Whether the repository's status decides the overall status. */
  readonly enabled: boolean;
  /** The status reported in place of DOWN. */
  readonly downStatus: string;
}

export function readHealthSettings(settings: Settings): HealthSettings {
  return {
    enabled: settings.boolean(`${health}.enabled`),
    downStatus: settings.string(`${health}.down-health-status`).trim() || 'DOWN',
  };
}
