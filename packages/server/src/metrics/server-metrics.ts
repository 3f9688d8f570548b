/**
 * The server's Prometheus metrics, in a private Registry per server instance: tests (and embedders) run
 * several servers in one process, and prom-client's global registry would mix their counts or refuse the
 * second registration. Values owned by other components (git mirror, environment cache) are read at scrape
 * time, so the hot path pays only for the per-request counter.
 */
import { type BusNode, followCounter, registerBusMetrics } from '@confbus/bus';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { BuildInfo } from '../actuator/build-info.js';
import type { MirrorHealth } from '../git/index.js';
import { RequestDurations } from './request-durations.js';

/** What the environment service counts. */
export interface EnvironmentStats {
  readonly builds: number;
  readonly cacheHits: number;
  readonly cacheMisses: number;
}

export interface MetricsSources {
  /** The build's version, for confbus_build_info. */
  build: Pick<BuildInfo, 'version'>;
  git: () => MirrorHealth;
  environments: EnvironmentStats;
  /** The server's bus member, once started (undefined with the bus off). */
  bus: () => BusNode | undefined;
}

export interface RequestObservation {
  method: string;
  /** The route pattern (never the raw URL, which would make cardinality unbounded), or `unmatched`. */
  route: string;
  status: number;
  seconds: number;
}

interface UncountedRequests {
  readonly labels: { method: string; route: string; status: string };
  n: number;
}

/** Counts and times requests of one (method, route, status): bound once, so a request pays no lookup. */
export type RequestRecorder = (seconds: number) => void;

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: RequestDurations;
  /**
   * Requests counted since the counter was last read, by route, status and method: added to it at scrape time,
   * so a request pays for three Map lookups instead of prom-client's label hashing (a cache hit is a few µs in
   * all). The keys are bounded as the counter's label sets are.
   */
  private readonly uncounted = new Map<string, Map<number, Map<string, UncountedRequests>>>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    // Node's process_* and nodejs_* metrics, as every Node service exposes them.
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'confbus_build_info',
      help: 'Always 1; the labels say which confbus build and Node.js version run',
      labelNames: ['version', 'node_version'],
      registers,
    }).set({ version: sources.build.version, node_version: process.version }, 1);
    registerBusMetrics(this.registry, sources.bus);
    this.requests = new Counter({
      name: 'confbus_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      registers,
      collect: () => this.countRequests(),
    });
    this.durations = new RequestDurations({
      name: 'confbus_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route pattern',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers,
    });
    registerEnvironmentMetrics(this.registry, sources.environments);
    registerGitMetrics(this.registry, sources.git);
  }

  observeRequest(observation: RequestObservation): void {
    const { method, route } = observation;
    this.pendingOf(method, route, observation.status).n++;
    this.durations.seriesOf(method, route).observe(observation.seconds);
  }

  /** observeRequest for one (method, route, status), its series looked up once (the repeat-request fast path). */
  requestRecorder(method: string, route: string, status: number): RequestRecorder {
    const pending = this.pendingOf(method, route, status);
    const series = this.durations.seriesOf(method, route);
    return (seconds) => {
      pending.n++;
      series.observe(seconds);
    };
  }

  private pendingOf(method: string, route: string, status: number): UncountedRequests {
    let byStatus = this.uncounted.get(route);
    if (!byStatus) this.uncounted.set(route, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map()));
    let pending = byMethod.get(method);
    if (!pending)
      byMethod.set(method, (pending = { labels: { method, route, status: String(status) }, n: 0 }));
    return pending;
  }

  /** Adds the requests observed since the last read to the counter (keys stay: their number is bounded). */
  private countRequests(): void {
    for (const byStatus of this.uncounted.values())
      for (const byMethod of byStatus.values())
        for (const pending of byMethod.values()) {
          if (pending.n === 0) continue;
          this.requests.inc(pending.labels, pending.n);
          pending.n = 0;
        }
  }

  /** The text exposition format, and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** The environment service's counts, read at scrape time. */
function registerEnvironmentMetrics(registry: Registry, environments: EnvironmentStats): void {
  followCounter(
    registry,
    'confbus_environment_builds_total',
    'Environments built (cache misses that read the repository)',
    () => environments.builds,
  );
  followCounter(
    registry,
    'confbus_environment_cache_hits_total',
    'Environment requests answered from the cache',
    () => environments.cacheHits,
  );
  followCounter(
    registry,
    'confbus_environment_cache_misses_total',
    'Environment requests not found in the cache',
    () => environments.cacheMisses,
  );
}

/** The default repository's upstream checks, fetches and staleness, read at scrape time. */
function registerGitMetrics(registry: Registry, git: () => MirrorHealth): void {
  followCounter(
    registry,
    'confbus_git_upstream_checks_total',
    'Upstream checks (git ls-remote) started',
    () => git().checks,
  );
  followCounter(
    registry,
    'confbus_git_upstream_fetches_total',
    'Fetches performed because upstream refs had moved',
    () => git().fetches,
  );
  new Gauge({
    name: 'confbus_git_stale',
    help: '1 while the upstream is unreachable and the last fetched state is served, else 0',
    registers: [registry],
    collect() {
      this.set(git().stale ? 1 : 0);
    },
  });
  new Gauge({
    name: 'confbus_git_last_success_timestamp_seconds',
    help: 'Unix time of the last successful upstream check (0 = never)',
    registers: [registry],
    collect() {
      const at = git().lastSuccessAt;
      this.set(at === undefined ? 0 : at.getTime() / 1000);
    },
  });
}
