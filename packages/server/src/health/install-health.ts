/**
 * The health feature: /actuator/health with its components (the default repository as `git`, every repository,
 * the bus) and the Kubernetes probes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerBus } from '../bus/server-bus.js';
import type { MirrorHealth } from '../git/index.js';
import type { RepositoryRouter } from '../repositories/repository-router.js';
import { healthQueryFindsNothing } from './accept-empty-check.js';
import { queryRepositories } from './repository-queries.js';
import { registerHealthRoutes } from './health-controller.js';
import type { HealthSettings } from './health-settings.js';
import type { ComponentHealth } from './health-status.js';

export interface HealthInstall {
  readonly settings: HealthSettings;
  /** Who may see details (security's answer). */
  readonly showDetails: (request: FastifyRequest) => boolean;
  /** The default repository's health (defaultRepositoryHealth). */
  readonly git: () => MirrorHealth;
  readonly repositories: RepositoryRouter;
  readonly bus: ServerBus | undefined;
  /** spring.cloud.config.server.accept-empty: false makes health run Spring's empty-application query. */
  readonly acceptEmpty: boolean;
  /** The contract gate's component (its holds), when the gate is on. */
  readonly contracts?: () => ComponentHealth;
}

export function installHealth(app: FastifyInstance, install: HealthInstall): void {
  const { repositories, bus, settings } = install;
  const { queries } = settings;
  registerHealthRoutes(app, {
    settings,
    showDetails: install.showDetails,
    git: install.git,
    repositories: () => repositories.health(),
    components: () => ({
      ...busHealth(bus),
      ...(install.contracts ? { contracts: install.contracts() } : {}),
    }),
    ...(queries.length > 0
      ? {
          configServer: () =>
            queryRepositories(repositories, queries, {
              acceptEmpty: install.acceptEmpty,
              downStatus: settings.downStatus,
            }),
        }
      : {}),
    ...(install.acceptEmpty ? {} : { findsNothing: () => healthQueryFindsNothing(repositories) }),
  });
}

/** The default repository's health; without one (a uri template) its first repository's. */
export function defaultRepositoryHealth(repositories: RepositoryRouter, uri: string): () => MirrorHealth {
  return () =>
    repositories.defaultRepository?.mirror.health() ??
    Object.values(repositories.health())[0] ?? { uri, available: true, stale: false, checks: 0, fetches: 0 };
}

/**
 * The bus's health; DOWN while an enabled bus has not joined yet (the start has not finished) or is not
 * connected, with the last failure's reason.
 */
function busHealth(bus: ServerBus | undefined): Record<string, ComponentHealth> {
  if (!bus) return {};
  const node = bus.node;
  if (!node) return { bus: { status: 'DOWN', details: { joined: false } } };
  // Why it is down (the broker refused the password, an untrusted certificate…), as git's lastError says.
  return {
    bus: {
      status: node.connected ? 'UP' : 'DOWN',
      details: { id: node.busId, ...node.transportDetails, ...node.lastErrorDetails },
    },
  };
}
