/**
 * `GET /actuator/health`. Unlike Spring (which stays UP on a stale cache, config#1934), the git component
 * says when upstream was last reached and whether what we serve may be stale. The overall status stays UP
 * while we can serve something, because taking a config server out of rotation for an upstream outage would
 * turn a stale-config problem into a no-config problem.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MirrorHealth } from '../git/index.js';

export interface HealthSources {
  git: () => MirrorHealth;
  /** Every repository served, by name (`default`, `repos.<name>`, `<name>[<expanded uri>]`). */
  repositories?: () => Record<string, MirrorHealth>;
  /** Whether this request may see component details (false for anonymous callers when auth is on). */
  showDetails?: (request: FastifyRequest) => boolean;
  /** Extra components (the bus adds one). */
  components?: () => Record<string, { status: string; details?: Record<string, unknown> }>;
}

export function registerHealthRoutes(app: FastifyInstance, sources: HealthSources): void {
  app.get('/actuator/health', async (request) => {
    if (sources.showDetails && !sources.showDetails(request)) return { status: 'UP' };
    const git = sources.git();
    const gitStatus = statusOf(git);
    const extra = sources.components?.() ?? {};
    const repositories = sources.repositories?.() ?? {};
    return {
      status: 'UP',
      components: {
        git: { status: gitStatus, details: { ...git, repositories: statusOfEach(repositories) } },
        ...extra,
      },
    };
  });
}

function statusOf(health: MirrorHealth): string {
  return health.lastSuccessAt === undefined ? 'UNKNOWN' : health.stale ? 'STALE' : 'UP';
}

function statusOfEach(
  repositories: Record<string, MirrorHealth>,
): Record<string, MirrorHealth & { status: string }> {
  return Object.fromEntries(
    Object.entries(repositories).map(([name, health]) => [name, { status: statusOf(health), ...health }]),
  );
}
