/**
 * Console API, environment side: the effective properties of an application, their download, and diffs.
 *   GET /-/console/api/environment?application&profiles&label&filter&offset&limit
 *   GET /-/console/api/environment/download?application&profiles&label&format=yml|properties|json
 *   GET /-/console/api/diff?application&profiles&to[&from]   (no `from`: what the push of `to` changed)
 * Names, profiles and labels are validated exactly as the environment endpoints validate them (same codes).
 */
import { type Environment, renderJson, renderProperties, renderYaml, writeJson } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import { validateRequest } from '../environment/environment-controller.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
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
  // Renderings per resolved environment and format: a cached environment is one shared object per commit.
  const downloads = new WeakMap<Environment, Map<string, string>>();
  const downloadOf = (environment: Environment, format: (typeof FORMATS)[number]): string => {
    let byFormat = downloads.get(environment);
    if (!byFormat) downloads.set(environment, (byFormat = new Map()));
    let text = byFormat.get(format);
    if (text === undefined) {
      const masked = maskedProperties(environment);
      text =
        format === 'properties'
          ? `${renderProperties(masked)}\n`
          : format === 'yml'
            ? renderYaml(masked)
            : `${writeJson(renderJson(masked), 2)}\n`;
      byFormat.set(format, text);
    }
    return text;
  };

  // Effective properties per resolved environment (cached environments are shared objects).
  const effective = new WeakMap<Environment, EffectiveProperty[]>();
  const propertiesOf = (environment: Environment): EffectiveProperty[] => {
    let properties = effective.get(environment);
    if (!properties) {
      properties = effectiveProperties(environment, context.displayUri);
      effective.set(environment, properties);
    }
    return properties;
  };

  // Values may be bigints and JavaDoubles, which JSON.stringify (fastify's serializer) refuses.
  app.get<{ Querystring: Query }>(`${CONSOLE_API}/environment`, async (request, reply) => {
    reply.serializer(writeJson);
    const parsed = environmentRequest(request.query, context, 'label');
    const { resolved, revision } = await context.environments.find(parsed);
    const filter = optionalText(request.query, 'filter')?.toLowerCase();
    const all = propertiesOf(resolved.stored);
    const matching = filter === undefined ? all : all.filter((p) => p.key.toLowerCase().includes(filter));
    return {
      application: parsed.name,
      profiles: parsed.profiles,
      label: revision.label,
      commit: revision.commit,
      stale: revision.stale,
      ...paginate(matching, page(request.query, 200)),
    };
  });

  app.get<{ Querystring: Query }>(`${CONSOLE_API}/environment/download`, async (request, reply) => {
    const parsed = environmentRequest(request.query, context, 'label');
    const format = choice(request.query, 'format', FORMATS, 'yml');
    const { resolved, revision } = await context.environments.find(parsed);
    const body = downloadOf(resolved.stored, format);
    // Names and profiles are validated to [A-Za-z0-9._+@-] and commas: safe in a quoted file name.
    const file = `${parsed.applications.join('_')}-${parsed.profiles.join('_')}.${format}`;
    reply
      .type(format === 'json' ? 'application/json' : 'text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file}"`)
      .header('x-config-version', revision.commit);
    return body;
  });

  app.get<{ Querystring: Query }>(`${CONSOLE_API}/diff`, async (request, reply) => {
    reply.serializer(writeJson);
    const target = environmentRequest(request.query, context, 'to');
    // One upstream check for both sides: `to` checks, `from` reads the state that check fetched.
    const to = await context.mirror.resolve(target.label);
    const after = await context.environments.findAt(target, to);
    const fromLabel = optionalText(request.query, 'from') ?? (await previousCommitOf(context, to.commit));
    let before: Awaited<ReturnType<typeof context.environments.findAt>> | undefined;
    if (fromLabel !== null) {
      const source = environmentRequest({ ...request.query, from: fromLabel }, context, 'from');
      before = await context.environments.findAt(source, await context.mirror.resolveFetched(source.label));
    }
    return {
      application: target.name,
      profiles: target.profiles,
      from: before ? { label: before.revision.label, commit: before.revision.commit } : null,
      to: { label: to.label, commit: to.commit },
      ...diffEnvironments(before?.resolved.stored, after.resolved.stored),
    };
  });
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

/** The commit a push of `commit` replaced, else its first parent; null for a root commit. */
async function previousCommitOf(context: ConsoleContext, commit: string): Promise<string | null> {
  return context.pushes.previousOf(commit) ?? (await context.history.commit(commit)).parents[0] ?? null;
}
