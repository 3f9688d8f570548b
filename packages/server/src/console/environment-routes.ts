/**
 * Console API, environment side: the effective properties of an application, their download, and diffs.
 *   GET /-/console/api/environment?application&profiles&label&filter&offset&limit
 *   GET /-/console/api/environment/download?application&profiles&label&format=yml|properties|json
 *   GET /-/console/api/diff?application&profiles&to[&from]   (no `from`: what the push of `to` changed)
 * Each request goes through the repository router exactly as the environment endpoint's does (the named
 * repository whose patterns match, a uri template's mirror, else the default one) and reads the environment it
 * serves: decrypted, with the server's overrides. Names, profiles and labels are validated exactly as the
 * environment endpoints validate them (same codes).
 */
import {
  type ConsoleDiff,
  type ConsoleEnvironment,
  type PropertyValue,
  renderJson,
  renderProperties,
  renderYaml,
  writeJson,
} from '@confbus/core';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { validateRequest } from '../serving/environment-controller.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import type { ResolvedEnvironment } from '../environment/resolved-environment.js';
import type { ServedRepository } from '../repositories/served-repository.js';
import { CONSOLE_API, type ConsoleContext } from './console-context.js';
import { type Query, choice, optionalText, page, paginate, requiredText } from './console-params.js';
import {
  type EffectiveProperty,
  diffEnvironments,
  effectiveProperties,
  maskedProperties,
} from './effective-environment.js';

const FORMATS = ['yml', 'properties', 'json'] as const;

export function registerEnvironmentRoutes(app: FastifyInstance, context: ConsoleContext): void {
  const answers = new EnvironmentAnswers(context);
  // Values may be bigints and JavaDoubles, which JSON.stringify (fastify's serializer) refuses.
  app.get<{ Querystring: Query }>(`${CONSOLE_API}/environment`, async (request, reply) => {
    reply.serializer(writeJson);
    return answers.properties(request.query);
  });
  app.get<{ Querystring: Query }>(`${CONSOLE_API}/environment/download`, async (request, reply) =>
    answers.download(request.query, reply),
  );
  app.get<{ Querystring: Query }>(`${CONSOLE_API}/diff`, async (request, reply) => {
    reply.serializer(writeJson);
    return answers.diff(request.query);
  });
}

/**
 * The answers of the routes above. What they derive from a resolved environment is kept per environment object:
 * a cached environment is one shared object per commit, so a WeakMap holds it exactly as long as the cache does.
 */
class EnvironmentAnswers {
  /** Renderings per resolved environment and format. */
  private readonly downloads = new WeakMap<ResolvedEnvironment, Map<string, string>>();
  private readonly effective = new WeakMap<ResolvedEnvironment, EffectiveProperty[]>();

  constructor(private readonly context: ConsoleContext) {}

  /** One page of the effective properties, optionally filtered by key. */
  properties(query: Query): Promise<ConsoleEnvironment<PropertyValue>> {
    const parsed = environmentRequest(query, this.context, 'label');
    const filter = optionalText(query, 'filter')?.toLowerCase();
    const wanted = page(query, 200);
    return this.context.repositories.serve(parsed, async (served, { resolved, revision }) => {
      const all = this.propertiesOf(resolved, served);
      const matching = filter === undefined ? all : all.filter((p) => p.key.toLowerCase().includes(filter));
      return {
        application: parsed.name,
        profiles: [...parsed.profiles],
        repository: served.name,
        label: revision.label,
        commit: revision.commit,
        stale: revision.stale,
        ...paginate(matching, wanted),
      };
    });
  }

  /** The masked environment as a file to save. */
  async download(query: Query, reply: FastifyReply): Promise<string> {
    const parsed = environmentRequest(query, this.context, 'label');
    const format = choice(query, 'format', FORMATS, 'yml');
    const { resolved, revision } = await this.context.repositories.find(parsed);
    const file = `${parsed.applications.join('_')}-${parsed.profiles.join('_')}.${format}`;
    reply
      .type(format === 'json' ? 'application/json' : 'text/plain; charset=utf-8')
      .header('content-disposition', attachment(file))
      .header('x-config-version', revision.commit);
    return this.downloadOf(resolved, format);
  }

  /** What changed between two labels (`from` absent: the commit `to` replaced). */
  diff(query: Query): Promise<ConsoleDiff<PropertyValue>> {
    const { context } = this;
    const target = environmentRequest(query, context, 'to');
    const from = optionalText(query, 'from');
    // Both sides from the repository that serves `to`, with one upstream check: `to` checks, `from` reads the
    // state that check fetched.
    return context.repositories.serve(target, async (served, after) => {
      const fromLabel = from ?? (await previousCommitOf(context, served, after.revision.commit));
      const before =
        fromLabel === null
          ? undefined
          : await served.environments.find({
              ...environmentRequest({ ...query, from: fromLabel }, context, 'from'),
              lastFetched: true,
            });
      return {
        application: target.name,
        profiles: [...target.profiles],
        repository: served.name,
        from: before ? { label: before.revision.label, commit: before.revision.commit } : null,
        to: { label: after.revision.label, commit: after.revision.commit },
        ...diffEnvironments(before?.resolved, after.resolved),
      };
    });
  }

  private downloadOf(resolved: ResolvedEnvironment, format: (typeof FORMATS)[number]): string {
    let byFormat = this.downloads.get(resolved);
    if (!byFormat) this.downloads.set(resolved, (byFormat = new Map()));
    let text = byFormat.get(format);
    if (text === undefined) {
      const masked = maskedProperties(resolved);
      text =
        format === 'properties'
          ? `${renderProperties(masked)}\n`
          : format === 'yml'
            ? renderYaml(masked)
            : `${writeJson(renderJson(masked), 2)}\n`;
      byFormat.set(format, text);
    }
    return text;
  }

  private propertiesOf(resolved: ResolvedEnvironment, served: ServedRepository): EffectiveProperty[] {
    let properties = this.effective.get(resolved);
    if (!properties) {
      properties = effectiveProperties(resolved, served.environments.displayUri);
      this.effective.set(resolved, properties);
    }
    return properties;
  }
}

/**
 * `attachment` naming the file as RFC 6266 says: valid names hold letters of any script (`entwicklung-ü`, `日本`)
 * and `/` (a nested application), which a header cannot carry raw. So: `filename*=UTF-8''…` (RFC 5987) with the
 * name, path separators made `_`, and a plain `filename="…"` in ASCII (anything else `_`) for clients without RFC 5987.
 */
export function attachment(file: string): string {
  const name = file.replace(/[/\\]/g, '_');
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return contentDisposition(name, { fallback: ascii });
}

function environmentRequest(
  query: Query,
  context: ConsoleContext,
  labelParameter: string,
): EnvironmentRequest {
  return validateRequest(
    {
      name: requiredText(query, 'application'),
      profiles: optionalText(query, 'profiles') ?? 'default',
      label: optionalText(query, labelParameter) ?? null,
    },
    context.maxProfiles,
  );
}

/**
 * The commit a push of `commit` replaced (pushes are seen on the default repository), else its first parent in
 * the repository that serves it; null for a root commit or a repository without history.
 */
async function previousCommitOf(
  context: ConsoleContext,
  served: ServedRepository,
  commit: string,
): Promise<string | null> {
  const pushed = served.mirror === context.mirror ? context.pushes.previousOf(commit) : undefined;
  if (pushed !== undefined) return pushed;
  const history = served.mirror.history;
  return history ? ((await history.commit(commit)).parents[0] ?? null) : null;
}
