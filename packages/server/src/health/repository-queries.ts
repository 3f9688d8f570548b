/**
 * Spring's ConfigServerHealthIndicator.doHealthCheck for `spring.cloud.config.server.health.repositories.*`:
 * each configured environment is asked for in turn; the first that fails makes the component report
 * down-health-status with the application and profiles that failed; otherwise the details list each answer's
 * name, label, profiles and property-source names, and with accept-empty=false an answer with no source at all
 * reports down-health-status too. Reported as Spring names its indicator, `configServer`.
 */
import { messageOf } from '@confbus/core/internal';
import type { EnvironmentFinder } from '../environment/environment-finder.js';
import { ApplicationNotFoundError } from '../environment/environment-service.js';
import type { HealthQuery } from './health-settings.js';
import type { ComponentHealth } from './health-status.js';

export async function queryRepositories(
  finder: EnvironmentFinder,
  queries: readonly HealthQuery[],
  options: { acceptEmpty: boolean; downStatus: string },
): Promise<ComponentHealth> {
  const repositories: Array<Record<string, unknown>> = [];
  for (const query of queries) {
    const profiles = query.profiles.split(',');
    try {
      const { resolved } = await finder.find({
        name: query.application,
        applications: query.application.split(','),
        profilesText: query.profiles,
        profiles,
        label: query.label ?? null,
      });
      const environment = resolved.environment;
      const sources = environment.propertySources.map((source) => source.name);
      repositories.push({
        name: environment.name,
        label: environment.label,
        profiles: environment.profiles,
        ...(sources.length > 0 ? { sources } : {}),
      });
    } catch (error) {
      // accept-empty=false answers an empty environment with 404; Spring's indicator sees it as found, empty.
      if (error instanceof ApplicationNotFoundError) {
        repositories.push({
          name: query.application,
          label: query.label ?? null,
          profiles: [query.profiles],
        });
        continue;
      }
      return {
        status: options.downStatus,
        details: {
          repository: { application: query.application, profiles: query.profiles },
          error: messageOf(error),
        },
      };
    }
  }
  if (!options.acceptEmpty && !repositories.some((repository) => 'sources' in repository)) {
    return { status: options.downStatus, details: { acceptEmpty: false, repositories } };
  }
  return { status: 'UP', details: { repositories } };
}
