/**
 * The config server wired from its ports: the repository port (`openMirror`: a Git mirror, the native folders or a
 * test's fake, read by the environment service), the bus (`bus`: publishes what /monitor announces), the logger
 * and the clock. `createConfigServer` (create-config-server.ts) builds the real adapters from settings and calls
 * this; the fast test tier calls it with fakes (test/server-harness.ts) and no git or broker at all. Here: the
 * stores and the refresh tracker; the HTTP side (fastify and each feature's routes) is wire-http.ts, start and
 * stop server-lifecycle.ts.
 */
import type { BusNode } from '@confbus/bus';
import type { FastifyInstance } from 'fastify';
import { readBuildInfo } from './actuator/build-info.js';
import { RefreshTracker } from './bus/refresh-tracker.js';
import type { OperatorConsole } from './console/index.js';
import type { ConfigRepository } from './environment/config-repository.js';
import type { ServerEncryption } from './encryption/index.js';
import { BuildGate } from './environment/build-gate.js';
import { ConfigFileParser } from './environment/config-file-parser.js';
import { EnvironmentCaches } from './environment/environment-caches.js';
import type { EnvironmentService } from './environment/environment-service.js';
import { EnvironmentWorkers } from './environment/environment-workers.js';
import { withOverrides } from './environment/property-overrides.js';
import type { RepeatRequestFastPath } from './serving/repeat-request-fast-path.js';
import { openRepositories } from './repositories/open-repositories.js';
import type { RepositoryRouter } from './repositories/repository-router.js';
import { close, listen } from './server-lifecycle.js';
import type { ConfigServerPorts, Wiring } from './server-wiring.js';
import type { WatchFeature } from './watch/index.js';
import type { GateFeature } from './gate/install-gate.js';
import type { RolloutsFeature } from './rollouts/index.js';
import { buildHttp } from './wire-http.js';

export interface ConfigServer {
  readonly app: FastifyInstance;
  /** Every repository served (default, repos.*, placeholder-made); requests are routed through it. */
  readonly repositories: RepositoryRouter;
  /** The default repository; undefined when its uri has placeholders (then there is one per application). */
  readonly mirror: ConfigRepository | undefined;
  /** The default repository's environments (same condition). */
  readonly environments: EnvironmentService | undefined;
  /** The environment and parsed-file caches every repository shares (bounded by confbus.server.cache.*). */
  readonly caches: EnvironmentCaches;
  readonly tracker: RefreshTracker;
  /** The encryption key (if any) and the server-side decryptor (if enabled). */
  readonly encryption: ServerEncryption;
  /** The operator console, unless confbus.console.enabled=false. */
  readonly console: OperatorConsole | undefined;
  /** Answers repeated environment URLs without fastify; undefined when basic auth is on. */
  readonly fastPath: RepeatRequestFastPath | undefined;
  /** The watch stream, unless confbus.watch.enabled=false. */
  readonly watch: WatchFeature | undefined;
  /** The contract gate, unless confbus.contracts.gate.enabled=false (or no default Git repository). */
  readonly gate: GateFeature | undefined;
  /** Staged rollouts, unless confbus.server.rollouts.enabled=false. */
  readonly rollouts: RolloutsFeature | undefined;
  /** Set once listening, when spring.cloud.bus.enabled. */
  readonly bus: BusNode | undefined;
  /** Listens on server.address/server.port; resolves to the bound URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export type { ConfigServerPorts } from './server-wiring.js';

export async function wireConfigServer(ports: ConfigServerPorts): Promise<ConfigServer> {
  const encryption = ports.encryption ?? { locator: undefined, decryptor: undefined };
  const stores = openStores(ports, encryption);
  const { repositories } = stores;
  const defaultMirror = repositories.defaultRepository?.mirror;
  const tracker = new RefreshTracker(
    ports.logger.child({ component: 'bus' }),
    ports.config.bus.refreshEvents,
  );
  const wiring: Wiring = { ...ports, ...stores, encryption, tracker, build: readBuildInfo() };
  const { app, fastPath, console: operatorConsole, watch, gate, rollouts } = await buildHttp(wiring);
  const parts = { ...wiring, console: operatorConsole, watch, gate, rollouts };
  return {
    app,
    repositories,
    mirror: defaultMirror,
    environments: repositories.defaultRepository?.environments,
    caches: stores.caches,
    tracker,
    encryption,
    console: operatorConsole,
    fastPath,
    watch,
    gate,
    rollouts,
    get bus() {
      return ports.bus?.node;
    },
    listen: () => listen(parts, app),
    close: () => close(parts, app),
  };
}

/**
 * The repositories served, with what their environment services share: the file parser, the caches and the
 * worker threads; each environment built is decrypted and given the server's overrides once, before caching.
 */
function openStores(
  ports: ConfigServerPorts,
  encryption: ServerEncryption,
): Pick<Wiring, 'caches' | 'workers' | 'repositories'> {
  const { environment } = ports.config;
  const workers = new EnvironmentWorkers();
  const parser = new ConfigFileParser({ ...environment.files, workers });
  const caches = new EnvironmentCaches(environment.cache);
  const { decryptor } = encryption;
  const { overrides } = environment;
  const repositories = openRepositories({
    repositories: ports.config.repositories,
    environment,
    uri: ports.uri,
    openMirror: ports.openMirror,
    parser,
    buildGate: new BuildGate(environment.builds.maxConcurrent, environment.builds.maxQueued),
    caches,
    workers,
    transform:
      decryptor || Object.keys(overrides).length > 0
        ? async (env) => withOverrides(decryptor ? await decryptor.decrypt(env) : env, overrides)
        : undefined,
    logger: ports.logger,
  });
  return { caches, workers, repositories };
}
