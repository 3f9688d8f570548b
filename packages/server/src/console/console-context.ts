/** What the console's routes read from the rest of the server; built once in the composition root. */
import type { BusNode } from '@confbus/bus';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../security/principal.js';
import type { RefreshTracker, TrackedRefresh } from '../bus/refresh-tracker.js';
import type { ConfigRepository, RepositoryHistory } from '../environment/config-repository.js';
import type { RepositoryRouter } from '../repositories/repository-router.js';
import type { AllowedHosts } from './allowed-hosts.js';
import type { ApplicationCatalogue } from './application-catalogue.js';
import type { ConsoleEventStream } from './event-stream.js';
import type { FleetRegistry } from './fleet-registry.js';
import type { PushLog } from './push-log.js';

/** Where the console lives. `-` can start neither an application name nor a label, so no environment URL
 *  (`/{application}/{profiles}`, `/{label}/{application}-{profiles}.yml`) can ever reach these paths. */
export const CONSOLE_PATH = '/-/console';
export const CONSOLE_API = `${CONSOLE_PATH}/api`;

/** The default repository as the console needs it: one that refreshes and has a history (a Git mirror). */
export type ConsoleRepository = ConfigRepository & Required<Pick<ConfigRepository, 'refresh' | 'history'>>;

/** Whether the console can work on `repository` (see consoleUnavailableReason). */
export const isConsoleRepository = (
  repository: ConfigRepository | undefined,
): repository is ConsoleRepository => repository?.refresh !== undefined && repository.history !== undefined;

export interface ConsoleContext {
  /**
   * Every repository the server serves, routed as the environment endpoint routes them: each environment the
   * console shows comes from here, so it is what clients get.
   */
  repositories: RepositoryRouter;
  /** The default repository: the labels, applications, commits and pushes the console lists. */
  mirror: ConsoleRepository;
  /** The default repository's history. */
  history: RepositoryHistory;
  /** The default repository's applications. */
  catalogue: ApplicationCatalogue;
  tracker: RefreshTracker;
  fleet: FleetRegistry;
  events: ConsoleEventStream;
  pushes: PushLog;
  maxProfiles: number;
  busEnabled: boolean;
  /** The running bus node, once the server listens (undefined while the bus is off or starting). */
  bus(): BusNode | undefined;
  authEnabled: boolean;
  /** Who a request acts as (undefined on an open route without credentials). */
  principalOf(request: FastifyRequest): Principal | undefined;
  /** Per-process secret the page must echo in `X-Confbus-Csrf` on every action. */
  csrfToken: string;
  /** The Host names actions are accepted under (DNS rebinding guard). */
  allowedHosts: AllowedHosts;
}

/** A page of the refresh events this server published, newest first (one place reads the tracker). */
export function refreshEventsOf(
  context: ConsoleContext,
  page: { offset: number; limit: number },
): { total: number; events: TrackedRefresh[] } {
  return context.tracker.list(page);
}
