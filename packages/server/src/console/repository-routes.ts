/**
 * Console API, repository side: the overview, labels, applications and the commits that touched them.
 *   GET /-/console/api/overview
 *   GET /-/console/api/labels?offset&limit
 *   GET /-/console/api/applications?label&filter&offset&limit
 *   GET /-/console/api/applications/{application}/commits?label&offset&limit
 *   GET /-/console/api/commits/{commit}
 */
import {
  ConfbusError,
  type ConsoleApplicationCommits,
  type ConsoleApplications,
  type ConsoleCommitDetails,
  type ConsoleOverview,
  type ConsoleRepositoryState,
  validateApplicationName,
} from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { FastifyInstance } from 'fastify';
import { serverErrors } from '../errors.js';
import type { ResolvedRevision } from '../environment/config-repository.js';
import type { RepositoryDefinition } from '../repositories/repository-settings.js';
import type { ServedRepository } from '../repositories/served-repository.js';
import type { CatalogueApplication } from './application-catalogue.js';
import { CONSOLE_API, type ConsoleContext, refreshEventsOf } from './console-context.js';
import { type Query, badRequest, optionalText, page, paginate } from './console-params.js';
import { viewOfRefreshEvent } from './refresh-event-view.js';

const LATEST = 5;
/** An application's file list in the list answer; the commits answer covers all of them. */
const FILES_SHOWN = 50;

export function registerRepositoryRoutes(app: FastifyInstance, context: ConsoleContext): void {
  app.get(`${CONSOLE_API}/overview`, async () => overview(context));
  app.get<{ Querystring: Query }>(`${CONSOLE_API}/labels`, async (request) =>
    paginate(await context.history.labels(), page(request.query, 100)),
  );
  app.get<{ Querystring: Query }>(`${CONSOLE_API}/applications`, async (request) =>
    applications(context, request.query),
  );
  app.get<{ Params: { application: string }; Querystring: Query }>(
    `${CONSOLE_API}/applications/:application/commits`,
    async (request) => applicationCommits(context, request.params.application, request.query),
  );
  app.get<{ Params: { commit: string } }>(`${CONSOLE_API}/commits/:commit`, async (request) =>
    commitDetails(context, request.params.commit),
  );
}

/** One page of the applications at a label, each with the first of its files. */
async function applications(context: ConsoleContext, query: Query): Promise<ConsoleApplications> {
  const revision = await context.mirror.resolve(optionalText(query, 'label') ?? null);
  const catalogue = await context.catalogue.at(revision.commit);
  const filter = optionalText(query, 'filter')?.toLowerCase();
  const matching = catalogue.applications.filter(
    (a) => filter === undefined || a.name.toLowerCase().includes(filter),
  );
  const paged = paginate(matching, page(query));
  return {
    label: revision.label,
    commit: revision.commit,
    ...paged,
    items: paged.items.map((a) => ({
      ...a,
      files: a.files.slice(0, FILES_SHOWN),
      fileCount: a.files.length,
    })),
  };
}

/** One page of the commits that touched an application's files, newest first. */
async function applicationCommits(
  context: ConsoleContext,
  name: string,
  query: Query,
): Promise<ConsoleApplicationCommits> {
  const { revision, application } = await findApplication(context, name, query);
  const { offset, limit } = page(query, 20);
  const log = await context.history.log({
    commit: revision.commit,
    paths: application.files,
    offset,
    limit,
  });
  return {
    application: application.name,
    label: revision.label,
    commit: revision.commit,
    offset,
    limit,
    more: log.more,
    items: log.commits,
  };
}

/** One fetched commit, with the commit before it (the one its push replaced, else its first parent). */
async function commitDetails(context: ConsoleContext, commit: string): Promise<ConsoleCommitDetails> {
  if (!/^[0-9a-fA-F]{7,40}$/.test(commit))
    throw badRequest('A commit is written as 7 to 40 hexadecimal digits');
  const revision = await context.mirror.refresh.resolveFetched(commit);
  const summary = await context.history.commit(revision.commit);
  return {
    ...summary,
    previousCommit: context.pushes.previousOf(revision.commit) ?? summary.parents[0] ?? null,
  };
}

async function overview(context: ConsoleContext): Promise<ConsoleOverview> {
  const repositories = await Promise.all(
    context.repositories
      .configured()
      .flatMap(({ definition, served }) => served.map((one) => repositoryState(context, one, definition))),
  );
  const revision = repositories.find((entry) => entry.isDefault)?.revision;
  const catalogue = revision ? await context.catalogue.at(revision.commit).catch(() => undefined) : undefined;
  const bus = context.bus();
  const { events } = refreshEventsOf(context, { offset: 0, limit: LATEST });
  return {
    repositories: repositories.map((entry) => entry.view),
    bus: { enabled: context.busEnabled, connected: bus?.connected ?? false, id: bus?.busId ?? null },
    counts: { applications: catalogue?.applications.length ?? null, instances: context.fleet.list().length },
    refreshEvents: events.map((event) =>
      viewOfRefreshEvent(event, context.pushes.previousOf(event.commit) ?? null, catalogue),
    ),
    pushes: context.pushes.latest(LATEST),
  };
}

/**
 * One repository's state. The default one is checked upstream first (as every console read is); a named one is
 * shown as last fetched, so an overview neither waits for nor starts the clone of a repository no request has
 * needed yet (cloned on first use, unless clone-on-start).
 */
async function repositoryState(
  context: ConsoleContext,
  served: ServedRepository,
  definition: RepositoryDefinition,
): Promise<{ isDefault: boolean; revision: ResolvedRevision | undefined; view: ConsoleRepositoryState }> {
  const { mirror } = served;
  const isDefault = mirror === context.mirror;
  let revision: ResolvedRevision | undefined;
  let problem: string | undefined;
  try {
    if (isDefault) revision = await context.mirror.resolve(null);
    else if (mirror.health().available) revision = await mirror.refresh?.resolveFetched(null);
  } catch (error) {
    problem = messageOf(error);
  }
  const history = mirror.history;
  const commit =
    revision && history ? await history.commit(revision.commit).catch(() => undefined) : undefined;
  const health = mirror.health();
  return {
    isDefault,
    revision,
    view: {
      name: served.name,
      uri: health.uri,
      patterns: [...definition.patterns],
      label: revision?.label ?? null,
      commit: commit ?? null,
      lastCheckAt: health.lastCheckAt?.toISOString() ?? null,
      lastSuccessAt: health.lastSuccessAt?.toISOString() ?? null,
      state: health.stale ? 'STALE' : health.lastSuccessAt ? 'UP' : 'UNKNOWN',
      staleSince: health.staleSince?.toISOString() ?? null,
      error: problem ?? health.lastError ?? null,
    },
  };
}

async function findApplication(
  context: ConsoleContext,
  name: string,
  query: Query,
): Promise<{ revision: ResolvedRevision; application: CatalogueApplication }> {
  const problem = validateApplicationName(name);
  if (problem !== undefined || name.includes(','))
    throw badRequest(problem ?? 'One application name, not a list');
  const revision = await context.mirror.resolve(optionalText(query, 'label') ?? null);
  const catalogue = await context.catalogue.at(revision.commit);
  const application = catalogue.applications.find((a) => a.name === name);
  if (!application)
    throw new ConfbusError(
      serverErrors.CONFBUS_CONSOLE_NOT_FOUND,
      `No application '${name}' in the repository at ${revision.label}`,
    );
  return { revision, application };
}
