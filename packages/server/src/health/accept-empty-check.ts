/**
 * `spring.cloud.config.server.accept-empty=false` in health, as Spring's ConfigServerHealthIndicator has it: the
 * indicator asks for application `app`, profile `default` at the default label, and reports down-health-status
 * when the answer has no property source.
 */
import type { EnvironmentFinder } from '../environment/environment-finder.js';
import { ApplicationNotFoundError, type EnvironmentRequest } from '../environment/environment-service.js';

const HEALTH_QUERY: EnvironmentRequest = {
  name: 'app',
  applications: ['app'],
  profilesText: 'default',
  profiles: ['default'],
  label: null,
};

/** True when the health query finds nothing to serve; a repository that fails is reported by git's own status. */
export async function healthQueryFindsNothing(finder: EnvironmentFinder): Promise<boolean> {
  try {
    return (await finder.find(HEALTH_QUERY)).resolved.environment.propertySources.length === 0;
  } catch (error) {
    return error instanceof ApplicationNotFoundError;
  }
}
