/**
 * Console API, bus side: the fleet and the refresh events with their ack timelines.
 *   GET /-/console/api/fleet?application&state&offset&limit
 *   GET /-/console/api/refresh-events?offset&limit
 *   GET /-/console/api/refresh-events/{id}
 */
import {
  ConfbusError,
  addresses,
  type ConsoleFleet,
  type ConsolePaged,
  type ConsoleRefreshEvent,
  type ConsoleSyncState,
} from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import type { TrackedRefresh } from '../bus/refresh-tracker.js';
import { serverErrors } from '../errors.js';
import type { Catalogue } from './application-catalogue.js';
import { CONSOLE_API, type ConsoleContext, refreshEventsOf } from './console-context.js';
import { type Query, choice, optionalText, page, paginate } from './console-params.js';
import { FleetStatus } from './fleet-status.js';
import { viewOfRefreshEvent } from './refresh-event-view.js';

const STATES = ['any', 'current', 'same-config', 'lagging', 'unknown'] as const;

export function registerFleetRoutes(app: FastifyInstance, context: ConsoleContext): void {
  const status = new FleetStatus(context);

  app.get<{ Querystring: Query; Reply: ConsoleFleet }>(`${CONSOLE_API}/fleet`, async (request) => {
    const application = optionalText(request.query, 'application');
    const wanted = choice(request.query, 'state', STATES, 'any');
    const entries = await status.classify(
      context.fleet.list().filter((i) => application === undefined || i.application === application),
    );
    const counts: Record<ConsoleSyncState, number> = { current: 0, 'same-config': 0, lagging: 0, unknown: 0 };
    for (const entry of entries) counts[entry.state]++;
    return {
      counts,
      ...paginate(
        entries.filter((e) => wanted === 'any' || e.state === wanted),
        page(request.query, 100),
      ),
    };
  });

  type EventPage = ConsolePaged<ConsoleRefreshEvent>;
  app.get<{ Querystring: Query; Reply: EventPage }>(`${CONSOLE_API}/refresh-events`, async (request) => {
    const wanted = page(request.query, 20);
    const { total, events } = refreshEventsOf(context, wanted);
    const catalogue = await currentCatalogue(context);
    return { total, ...wanted, items: await Promise.all(events.map((e) => view(context, e, catalogue))) };
  });

  type OneEvent = { Params: { id: string }; Reply: ConsoleRefreshEvent };
  app.get<OneEvent>(`${CONSOLE_API}/refresh-events/:id`, async (request) => {
    // The tracker keeps a bounded number of events: finding one by id scans at most that many.
    const { events } = refreshEventsOf(context, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    const event = events.find((e) => e.id === request.params.id);
    if (!event)
      throw new ConfbusError(
        serverErrors.CONFBUS_CONSOLE_NOT_FOUND,
        'No such refresh event (the server keeps the most recent ones)',
      );
    const catalogue = await currentCatalogue(context);
    const acks = [...event.acks].sort((a, b) => a.afterMs - b.afterMs);
    const silent = silentInstances(context, event);
    return {
      ...(await view(context, event, catalogue)),
      acks,
      silent: silent.slice(0, SILENT_LISTED),
      silentCount: silent.length,
    };
  });
}

/** Silent instances listed in one event's answer (all are counted). */
const SILENT_LISTED = 100;

/**
 * The fleet's instances the event's destination addresses that have not acked it: never answered, or not yet.
 * An instance that started after the event was published fetched its configuration then, and owes no ack.
 */
function silentInstances(context: ConsoleContext, event: TrackedRefresh): string[] {
  const acked = new Set(event.acks.map((ack) => ack.service));
  return context.fleet
    .list()
    .filter(
      (instance) =>
        !acked.has(instance.id) &&
        addresses(event.destination, instance.id) &&
        (instance.startedAt === null || instance.startedAt <= event.publishedAt),
    )
    .map((instance) => instance.id)
    .sort();
}

async function view(
  context: ConsoleContext,
  event: TrackedRefresh,
  catalogue: Catalogue | undefined,
): Promise<ConsoleRefreshEvent> {
  const previous =
    context.pushes.previousOf(event.commit) ??
    (await context.history.commit(event.commit).then(
      (summary) => summary.parents[0] ?? null,
      () => null,
    ));
  return viewOfRefreshEvent(event, previous, catalogue);
}

async function currentCatalogue(context: ConsoleContext): Promise<Catalogue | undefined> {
  try {
    const revision = await context.mirror.refresh.resolveFetched(null);
    return await context.catalogue.at(revision.commit);
  } catch {
    return undefined;
  }
}
