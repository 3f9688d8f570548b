/**
 * Start and stop of a wired config server: listen (basedir check, first clone, the port, the bus, the start-up
 * line) and close (requests get a grace period, then everything else within the shutdown budget).
 */
import type { BusNode } from '@confbus/bus';
import type { Logger } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import type { RefreshTracker } from './bus/refresh-tracker.js';
import type { ServerBus } from './bus/server-bus.js';
import type { OperatorConsole } from './console/index.js';
import type { EnvironmentWorkers } from './environment/environment-workers.js';
import { displayUri } from './git/uri.js';
import { missingServerNodeFlags } from './node-flags.js';
import { warmUpNextTick } from './support/next-tick-warm-up.js';
import type { RepositoryRouter } from './repositories/repository-router.js';
import type { ServerConfig } from './server-config.js';
import type { GateFeature } from './gate/install-gate.js';
import type { WatchFeature } from './watch/index.js';
import type { RolloutsFeature } from './rollouts/index.js';
import { REQUEST_GRACE_MS, SHUTDOWN_BUDGET_MS, settlesBefore } from './shutdown-deadline.js';

/** The parts of a wired server that start and stop. */
export interface ServerParts {
  config: ServerConfig;
  logger: Logger;
  uri: string;
  basedir?: string;
  repositories: RepositoryRouter;
  bus: ServerBus | undefined;
  tracker: RefreshTracker;
  console: OperatorConsole | undefined;
  watch?: WatchFeature | undefined;
  gate?: GateFeature | undefined;
  rollouts?: RolloutsFeature | undefined;
  workers: EnvironmentWorkers;
  build: { version: string };
}

/**
 * Starts the server. Whatever step fails, before the port opens or after (basedir, the port itself, joining the
 * bus, a clone-on-start clone), everything already started is closed before the error is passed on: a server
 * that failed to start never keeps a port open, reports UP or outlives its command.
 */
export async function listen(w: ServerParts, app: FastifyInstance): Promise<string> {
  try {
    return await start(w, app);
  } catch (error) {
    await close(w, app);
    throw error;
  }
}

/**
 * Rollouts are read before the port opens, so a restarted server answers every instance as its wave says. Their
 * store is a ref of the upstream: one that fails, or does not answer within git.timeout (at most 5 s), does not
 * hold the port closed or fail the start (the first clone decides that, as before); the rollouts follow once read
 * (the store is read again every sync), and meanwhile the label's head is served (docs/rollouts.md, limits).
 */
async function openRollouts(w: ServerParts): Promise<void> {
  const opening = w.rollouts
    ?.open()
    .catch((error: unknown) =>
      w.logger.warn({ component: 'rollouts', err: error }, 'Rollouts could not be read from the upstream'),
    );
  const boundMs = Math.min(w.config.repositories.defaultRepository.timeoutSeconds || 5, 5) * 1000;
  if (await settlesBefore(opening, performance.now() + boundMs)) return;
  w.logger.warn(
    { component: 'rollouts', waitedMs: boundMs },
    'Rollouts not read from the upstream yet: the port opens; until they are, every instance is served the head',
  );
}

async function start(w: ServerParts, app: FastifyInstance): Promise<string> {
  const { config, logger, repositories } = w;
  // Before the first git read or request makes nextTick hot (support/next-tick-warm-up.ts).
  if (config.nextTickWarmUp) warmUpNextTick();
  // basedir is checked before anything else: a wrong one stops the start (naming the setting).
  await repositories.open();
  // The port opens at once, even while a large first clone runs (health reports the repository as not
  // yet available meanwhile). With clone-on-start a clone that fails still fails the start, as in Spring.
  const cloned = repositories.startCloning((name, error) =>
    logger.warn({ err: error, repository: name }, 'Initial clone failed; will retry on the first request'),
  );
  await openRollouts(w);
  const address = await app.listen({ port: config.http.port, host: config.http.address });
  await w.bus?.join(address, (node) => listenToBus(w, node));
  if (w.bus?.node) w.console?.busStarted(w.bus.node);
  if (w.bus?.node) w.gate?.busStarted(w.bus.node);
  // The start-up summary: what runs and with which settings (non-default ones, secrets masked).
  logger.info(
    {
      version: w.build.version,
      uri: displayUri(w.uri, config.repositories.uriIsSecret),
      basedir: w.basedir,
      settings: config.effective,
    },
    `Config server listening on ${address}`,
  );
  // Contract verdicts are the bursts pretenuring punishes (node-flags.ts): said where an operator looks first.
  const missingFlags = missingServerNodeFlags();
  if (w.gate !== undefined && missingFlags.length > 0)
    logger.warn(
      { missingNodeFlags: missingFlags },
      `Node was started without ${missingFlags.join(' ')}: cached requests cost more CPU after each contract verdict; start with the confbus command or pass the flags to node (docs/operations.md, "Node flags")`,
    );
  const cloneFailure = await cloned;
  if (cloneFailure !== undefined) throw cloneFailure;
  return address;
}

/** What the server follows on the bus: acks, other servers' refreshes, and (for the console) everything else. */
function listenToBus(w: ServerParts, node: BusNode): void {
  const { tracker, console: operatorConsole } = w;
  // Refreshes other config servers announced (they carry the commit): with several servers behind one
  // bus, each lists every refresh and, bound with `#`, every ack, so their refresh-events agree.
  node.on('observed', (event) => {
    if (event.configVersion !== undefined) tracker.published(event, event.configVersion);
    w.watch?.upstreamChanged();
  });
  node.on('ack', (ack) => {
    tracker.acked(ack);
    operatorConsole?.acked(ack);
  });
  const { gate } = w;
  if (gate) node.on('other', (event) => gate.busEvent(event));
  if (operatorConsole) {
    node.on('other', (event) => operatorConsole.busEvent(event));
    const connected = () => operatorConsole.busConnected();
    node.on('connected', connected).on('reconnected', connected);
  }
}

/** One shutdown per server: a failed start and the command's own close (or a signal) share it. */
const closing = new WeakMap<ServerParts, Promise<void>>();

export function close(w: ServerParts, app: FastifyInstance): Promise<void> {
  let closed = closing.get(w);
  if (!closed) closing.set(w, (closed = closeOnce(w, app)));
  return closed;
}

async function closeOnce(w: ServerParts, app: FastifyInstance): Promise<void> {
  const began = performance.now();
  const deadline = began + SHUTDOWN_BUDGET_MS;
  w.console?.close();
  w.watch?.close();
  w.rollouts?.close();
  // Requests in flight get a grace period; then their connections are dropped.
  if (!(await settlesBefore(app.close(), began + REQUEST_GRACE_MS))) {
    w.logger.warn({}, 'Requests still running at shutdown: their connections are closed');
    app.server.closeAllConnections();
  }
  w.tracker.close();
  const steps = [w.bus?.close(), w.repositories.close(), w.workers.close()];
  const settled = await Promise.all(steps.map((step) => settlesBefore(step, deadline)));
  if (settled.includes(false)) w.logger.warn({}, 'Shutdown did not finish in time; exiting anyway');
}
