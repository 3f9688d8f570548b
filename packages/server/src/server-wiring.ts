/**
 * The ports a config server is wired from, and what wiring builds once from them (wire-config-server.ts builds
 * it; wire-http.ts and server-lifecycle.ts read it).
 */
import type { Logger } from 'pino';
import type { BuildInfo } from './actuator/build-info.js';
import type { AuditSink } from './audit/audit-writer.js';
import type { RefreshTracker } from './bus/refresh-tracker.js';
import type { ServerBus } from './bus/server-bus.js';
import type { Clock } from './clock.js';
import type { ServerEncryption } from './encryption/index.js';
import type { EnvironmentCaches } from './environment/environment-caches.js';
import type { EnvironmentWorkers } from './environment/environment-workers.js';
import type { ServerTls } from './http/tls/server-tls.js';
import type { OpenMirror } from './repositories/repository-stores.js';
import type { RepositoryRouter } from './repositories/repository-router.js';
import type { RolloutStore } from './rollouts/index.js';
import type { ServerConfig } from './server-config.js';

export interface ConfigServerPorts {
  /** The settings, read once (resolveServerConfig). */
  config: ServerConfig;
  /** pino's, as the HTTP app needs it (fastify logs through it); every other part takes core's Logger. */
  logger: Logger;
  /** Wall-clock time (webhook signature windows). */
  clock: Clock;
  /** The default repository's uri as configured ('native' for the native backend). */
  uri: string;
  /** The repository port: opens the store of each repository served. */
  openMirror: OpenMirror;
  /** The refresh bus; undefined when spring.cloud.bus.enabled is false. */
  bus: ServerBus | undefined;
  /** The encryption key and decryptor (default: none). */
  encryption?: ServerEncryption;
  /** HTTPS (server.ssl.*); undefined: plain HTTP. */
  tls?: ServerTls | undefined;
  /** Where audit lines go (default: confbus.audit.file, else standard output); tests pass a recording sink. */
  auditSink?: AuditSink | undefined;
  /** Where rollouts are kept (the Git store of create-config-server.ts); default: this process's memory. */
  rolloutStore?: RolloutStore;
  /** Where the default repository's mirror lives, for the start-up line (none for a test's fake). */
  basedir?: string;
}

/** What the parts of a server share: the ports, and what is built once from them. */
export interface Wiring extends ConfigServerPorts {
  encryption: ServerEncryption;
  caches: EnvironmentCaches;
  workers: EnvironmentWorkers;
  repositories: RepositoryRouter;
  tracker: RefreshTracker;
  build: BuildInfo;
}
