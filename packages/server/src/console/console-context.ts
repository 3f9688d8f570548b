/** What the console's routes read from the rest of the server; built once in the composition root. */
import type { BusNode } from '@confbus/bus';
import type { RefreshTracker, TrackedRefresh } from '../bus/refresh-tracker.js';
import type { EnvironmentService } from '../environment/environment-service.js';
import type { GitHistory, GitMirror } from '../git/index.js';
import type { ApplicationCatalogue } from './application-catalogue.js';
import type { ConsoleEventStream } from './event-stream.js';
import type { FleetRegistry } from './fleet-registry.js';
import type { PushLog } from './push-log.js';

/** Where the console lives. `-` can start neither an application name nor a label, so no environment URL
 *  (`/{application}/{profiles}`, `/{label}/{application}-{profiles}.yml`) can ever reach these paths. */
export const CONSOLE_PATH = '/-/console';
export const CONSOLE_API = `${CONSOLE_PATH}/api`;

export interface ConsoleContext {
  mirror: GitMirror;
  history: GitHistory;
  catalogue: ApplicationCatalogue;
  environments: EnvironmentService;
  tracker: RefreshTracker;
  fleet: FleetRegistry;
  events: ConsoleEventStream;
  pushes: PushLog;
  /** The repository URI without credentials. */
  displayUri: string;
  maxProfiles: number;
  busEnabled: boolean;
  /** The running bus node, once the server listens (undefined while the bus is off or starting). */
  bus(): BusNode | undefined;
  authEnabled: boolean;
  /** Per-process secret the page must echo in `X-Confbus-Csrf` on every action. */
  csrfToken: string;
}

/** A page of the refresh events this server published, newest first (one place reads the tracker). */
export function refreshEventsOf(
  context: ConsoleContext,
  page: { offset: number; limit: number },
): { total: number; events: TrackedRefresh[] } {
  return context.tracker.list(page);
}
