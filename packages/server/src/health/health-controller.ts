/**
 * `GET /actuator/health` and its paths, as Spring Boot's actuator answers them:
 * - overall: DOWN (503) while nothing can be served (the repository was never fetched: a first clone still
 *   running or failing), UP otherwise. Unlike Spring, a stale state (upstream unreachable) stays UP, with the
 *   git component saying STALE and since when: taking a config server out of rotation for an upstream outage
 *   would turn a stale-config problem into a no-config problem (Spring stays UP on a stale cache, config#1934,
 *   without saying so). The bus does not take the server down either: configuration is still served.
 * - with `spring.cloud.config.server.accept-empty=false`, the git component reports down-health-status while
 *   Spring's health query (application `app`, profile `default`, the default label) finds no property source, as
 *   Spring's ConfigServerHealthIndicator does; readiness is left alone, since other applications are served.
 * - `/actuator/health/liveness` (the process answers) and `/actuator/health/readiness` (a state can be
 *   served), Boot's probe groups; `/actuator/health/{component}` for one component.
 * Anonymous callers (auth on) see statuses only, never details.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MirrorHealth } from '../git/index.js';
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';
import type { HealthSettings } from './health-settings.js';
import { type ComponentHealth, type HealthStatus, aggregateStatus, httpStatusOf } from './health-status.js';

export interface HealthSources {
  git: () => MirrorHealth;
  /** Every repository served, by name (`default`, `repos.<name>`, `<name>[<expanded uri>]`). */
  repositories?: () => Record<string, MirrorHealth>;
  /** Whether this request may see component details (false for anonymous callers when auth is on). */
  showDetails?: (request: FastifyRequest) => boolean;
  /** Extra components (the bus adds one); reported, but they do not change the overall status. */
  components?: () => Record<string, ComponentHealth>;
  /** `spring.cloud.config.server.health.*` (default: enabled, DOWN). */
  settings?: HealthSettings;
  /**
   * With accept-empty=false: whether Spring's health query finds no property source (asked only while the
   * repository is available). Undefined with accept-empty=true.
   */
  findsNothing?: () => Promise<boolean>;
  /**
   * With spring.cloud.config.server.health.repositories.*: Spring's indicator over those environments
   * (repository-queries.ts), the `configServer` component; it decides the overall status with the repository.
   */
  configServer?: () => Promise<ComponentHealth>;
}

export const LIVENESS_PATH = '/actuator/health/liveness';
export const READINESS_PATH = '/actuator/health/readiness';

export function registerHealthRoutes(app: FastifyInstance, sources: HealthSources): void {
  const view = (request: FastifyRequest, empty = false, configServer?: ComponentHealth) =>
    new HealthView(sources, sources.showDetails?.(request) ?? true, empty, configServer);
  // The probes never run the accept-empty query nor health.repositories: neither is in Boot's probe groups.
  const checkedView = async (request: FastifyRequest) => {
    const { findsNothing } = sources;
    const empty = findsNothing !== undefined && sources.git().available && (await findsNothing());
    return view(request, empty, await sources.configServer?.());
  };

  // Any authenticated caller (and anyone, when confbus.security.health-open): clients check the server's health.
  const anyCaller = { config: { access: 'authenticated' as const } };
  app.get('/actuator/health', anyCaller, async (request, reply) =>
    send(reply, (await checkedView(request)).overall()),
  );
  app.get(LIVENESS_PATH, anyCaller, async (request, reply) => send(reply, view(request).liveness()));
  app.get(READINESS_PATH, anyCaller, async (request, reply) => send(reply, view(request).readiness()));
  app.get<{ Params: { component: string } }>(
    '/actuator/health/:component',
    anyCaller,
    async (request, reply) => {
      const component = (await checkedView(request)).component(request.params.component);
      if (component) return send(reply, component);
      throw new ConfbusError(
        serverErrors.CONFBUS_NO_SUCH_HEALTH_COMPONENT,
        `No health component at ${request.url.split('?')[0]}`,
      );
    },
  );
}

function send(reply: FastifyReply, health: { status: HealthStatus }): unknown {
  return reply.code(httpStatusOf(health.status)).send(health);
}

interface HealthBody {
  status: HealthStatus;
  components?: Record<string, ComponentHealth>;
  details?: Record<string, unknown>;
}

class HealthView {
  private readonly gitHealth: MirrorHealth;
  private readonly repositories: Record<string, MirrorHealth>;
  private readonly extra: Record<string, ComponentHealth>;

  private readonly settings: HealthSettings;

  constructor(
    sources: HealthSources,
    private readonly details: boolean,
    /** accept-empty=false and the health query found no property source. */
    private readonly findsNothing = false,
    /** health.repositories.*' component, when configured. */
    private readonly configServer?: ComponentHealth,
  ) {
    this.settings = sources.settings ?? { enabled: true, downStatus: 'DOWN', queries: [] };
    this.gitHealth = sources.git();
    this.repositories = sources.repositories?.() ?? {};
    this.extra = sources.components?.() ?? {};
  }

  overall(): HealthBody {
    // health.enabled=false: Spring drops its repository indicator, so only the other (reporting) ones remain.
    const deciding = [this.git().status, ...(this.configServer ? [this.configServer.status] : [])];
    const status = this.settings.enabled ? aggregateStatus(deciding) : 'UP';
    if (!this.details) return { status };
    return { status, components: this.all() };
  }

  private all(): Record<string, ComponentHealth> {
    const configServer: Record<string, ComponentHealth> = this.configServer
      ? { configServer: this.configServer }
      : {};
    return { git: this.git(), ...configServer, ...this.extra, ...this.probes() };
  }

  liveness(): HealthBody {
    return this.group({ livenessState: { status: 'UP' } });
  }

  /** Not ready while nothing can be served, whatever status down-health-status names. */
  readiness(): HealthBody {
    const body = this.group({ readinessState: this.readinessState(), git: this.git() });
    const serving = this.gitHealth.available || httpStatusOf(body.status) === 503;
    return serving ? body : { ...body, status: 'OUT_OF_SERVICE' };
  }

  component(name: string): HealthBody | undefined {
    const all = this.all();
    const found = Object.hasOwn(all, name) ? all[name] : undefined;
    if (!found) return undefined;
    return this.details ? found : { status: found.status };
  }

  private group(members: Record<string, ComponentHealth>): HealthBody {
    const status = aggregateStatus(Object.values(members).map((member) => member.status));
    return this.details ? { status, components: members } : { status };
  }

  private probes(): Record<string, ComponentHealth> {
    return { livenessState: { status: 'UP' }, readinessState: this.readinessState() };
  }

  /** Boot's readiness state: accepting traffic once a state can be served. */
  private readinessState(): ComponentHealth {
    return { status: this.gitHealth.available ? 'UP' : 'OUT_OF_SERVICE' };
  }

  /** The default repository decides; every other one is listed in the details with its own status. */
  private git(): ComponentHealth {
    const git = this.gitHealth;
    const status: HealthStatus =
      !git.available || this.findsNothing ? this.settings.downStatus : git.stale ? 'STALE' : 'UP';
    const repositories = Object.fromEntries(
      Object.entries(this.repositories).map(([name, health]) => [
        name,
        { status: repositoryStatus(health), ...health },
      ]),
    );
    const acceptEmpty = this.findsNothing ? { acceptEmpty: false } : {};
    return { status, details: { ...git, ...acceptEmpty, repositories } };
  }
}

/** A repository that was never used is not down: it is cloned on its first request. */
function repositoryStatus(health: MirrorHealth): HealthStatus {
  if (!health.available) return health.lastError === undefined ? 'UNKNOWN' : 'DOWN';
  return health.stale ? 'STALE' : 'UP';
}
