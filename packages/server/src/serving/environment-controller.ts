/**
 * HTTP routes of Spring's environment, file-format and plain-text endpoints:
 *   GET /{application}/{profiles}[/{label}]                      → environment JSON
 *   GET /{application}-{profiles}.(yml|yaml|properties|json)      → merged file, default label
 *   GET /{label}/{application}-{profiles}.(yml|yaml|properties|json)
 *   GET /{application}/{profiles}/{label}/{path}, /{application}/{profiles}/{path}?useDefaultLabel → a file
 * all under `spring.cloud.config.server.prefix` when it is set, as Spring mounts its controllers.
 * Path segments arrive percent-decoded (`%2C`, `%2F` from cloud-config-client); `(_)` stands for `/` (Spring's
 * own client). Everything is validated before the repository is touched.
 */
import {
  ConfbusError,
  ROLLOUT_HEADER,
  decodeSpringSegment,
  parseApplications,
  parseProfiles,
  type ProfileRules,
  validateApplicationName,
  validateProfile,
} from '@confbus/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireValidLabel } from '../git/index.js';
import { serverErrors } from '../errors.js';
import { type EnvironmentRequest, withVersionHint } from '../environment/environment-service.js';
import type { RenderFormat } from '../environment/resolved-environment.js';
import type { EnvironmentFinder } from '../environment/environment-finder.js';
import { LruCache } from '../support/lru-cache.js';
import { environmentHeaders, revisionHeaders } from '../environment/environment-response.js';
import type { RepeatRequestFastPath } from './repeat-request-fast-path.js';
import { type CommitChoice, chosenRequest } from './commit-choice.js';
import type { PlainTextDecryptor } from './plain-text-decryption.js';
import { type ResourceSource, decodeSegment, rawSegmentsAfter, sendResource } from './resource-responses.js';
import { VERSION_HINT_HEADER, readVersionHint } from '../environment/version-hint.js';
import type { ReadTarget } from '../security/principal.js';

const FILE_SUFFIX = /\.(yml|yaml|properties|json)$/;

export interface EnvironmentRoutesOptions {
  service: EnvironmentFinder;
  maxProfiles: number;
  /** `spring.profiles.validate` (default true): Spring's character rules for requested profiles (core's ProfileRules). */
  validateProfiles?: boolean;
  /** Answers the plain-text endpoint (undefined: not served). */
  resources?: ResourceSource;
  /** Who else decides the commit served (a staged rollout, by the instance headers); undefined: the label. */
  commitChoice?: CommitChoice;
  /** Remembers URLs answered with 200, so repeats can skip fastify (undefined: no fast path). */
  fastPath?: RepeatRequestFastPath;
  /** Decrypts `{cipher}` values in plain-text resources (undefined: plain-text-encrypt is off). */
  decryptResource?: PlainTextDecryptor;
  /** `spring.cloud.config.server.prefix` (`''` or `/config`): every route here is mounted under it. */
  prefix?: string;
  /** `spring.cloud.config.server.strip-document-from-yaml` (default true). */
  stripDocumentFromYaml?: boolean;
  /** `spring.cloud.config.server.reverse-location-order`: plain-text files looked up last location first. */
  reverseLocationOrder?: boolean;
  /** Refuses (403) a principal that may not read the request's applications, profiles or label (security). */
  requireRead?: (request: FastifyRequest, target: ReadTarget) => void;
}

/** Any authenticated caller reaches these routes; which application it may read is checked once parsed. */
const CLIENT_ROUTE = { config: { access: 'authenticated' as const } };

export function registerEnvironmentRoutes(app: FastifyInstance, options: EnvironmentRoutesOptions): void {
  const prefix = options.prefix ?? '';
  const endpoints = new EnvironmentEndpoints(options, prefix);
  app.get<{ Params: { file: string } }>(`${prefix}/:file`, CLIENT_ROUTE, (request, reply) =>
    endpoints.sendFile(request, reply, null, request.params.file),
  );
  app.get<{ Params: NameAndProfiles }>(`${prefix}/:name/:profiles`, CLIENT_ROUTE, (request, reply) =>
    endpoints.sendTwoSegments(request, reply),
  );
  app.get<{ Params: NameAndProfiles & { '*': string } }>(
    `${prefix}/:name/:profiles/*`,
    CLIENT_ROUTE,
    (request, reply) => endpoints.sendLabelledOrResource(request, reply),
  );
}

interface NameAndProfiles {
  name: string;
  profiles: string;
}

/** The answers of the routes above, sharing the options and the cache of validated requests. */
class EnvironmentEndpoints {
  /** Segments of the URL after the prefix. */
  private readonly prefixSegments: number;
  // Clients ask for the same few (application, profiles, label) over and over: validate each once.
  private readonly validated = new LruCache<string, EnvironmentRequest>(2000);

  constructor(
    private readonly options: EnvironmentRoutesOptions,
    prefix: string,
  ) {
    this.prefixSegments = prefix === '' ? 0 : prefix.split('/').length - 1;
  }

  /** `/{name}/{profiles}`, or `/{label}/{app}-{profiles}.yml`, which shares its shape. */
  sendTwoSegments(
    request: FastifyRequest<{ Params: NameAndProfiles }>,
    reply: FastifyReply,
  ): Promise<Buffer | string> {
    const { name, profiles } = request.params;
    // Spring's `/{name}/{profiles}` excludes file suffixes.
    if (FILE_SUFFIX.test(profiles)) return this.sendFile(request, reply, name, profiles);
    return this.sendEnvironment(request, reply, { name, profiles, label: null });
  }

  /** `/{name}/{profiles}/{label}`, or a plain-text resource. */
  sendLabelledOrResource(
    request: FastifyRequest<{ Params: NameAndProfiles & { '*': string } }>,
    reply: FastifyReply,
  ): Promise<Buffer | string> {
    const { options } = this;
    const { name, profiles } = request.params;
    // Spring's label is one segment: more segments make `/{name}/{profile}/{label}/{path}`, and one segment
    // with ?useDefaultLabel makes `/{name}/{profile}/{path}` (plain-text resources).
    const rest = rawSegmentsAfter(request.url, this.prefixSegments + 2);
    const useDefaultLabel = Object.hasOwn(request.query as object, 'useDefaultLabel');
    if (options.resources && (rest.length > 1 || useDefaultLabel)) {
      const label = rest.length > 1 || !useDefaultLabel ? decodeSegment(rest[0] ?? '') : null;
      const parsed = this.parseRequest(request, { name, profiles, label });
      const path = label === null ? rest : rest.slice(1);
      return sendResource(options.resources, request, reply, parsed, path, {
        decrypt: options.decryptResource,
        reverseLocationOrder: options.reverseLocationOrder ?? false,
      });
    }
    return this.sendEnvironment(request, reply, { name, profiles, label: request.params['*'] });
  }

  async sendEnvironment(request: FastifyRequest, reply: FastifyReply, parts: RawParts): Promise<Buffer> {
    const parsed = this.parseRequest(request, parts);
    const chosen = chosenRequest(this.options.commitChoice, parsed, request.headers);
    const { resolved, revision } = await this.options.service.find(
      withVersionHint(chosen, versionHint(request)),
    );
    reply.headers(environmentHeaders(request.headers.accept, revision));
    if (chosen !== parsed) reply.header(ROLLOUT_HEADER, 'report');
    this.options.fastPath?.remember(request.url, parsed, request.routeOptions.url ?? 'unmatched');
    return resolved.body(request.headers.accept);
  }

  async sendFile(
    request: FastifyRequest,
    reply: FastifyReply,
    label: string | null,
    file: string,
  ): Promise<string> {
    const match = /^(.+)-([^-]+)\.(yml|yaml|properties|json)$/.exec(file);
    if (!match) {
      throw new ConfbusError(
        serverErrors.CONFBUS_NOT_FOUND,
        `No endpoint for '${file}': expected {application}-{profiles}.yml|yaml|properties|json`,
      );
    }
    const [, name = '', profiles = '', extension = ''] = match;
    const parsed = this.parseRequest(request, { name, profiles, label });
    const chosen = chosenRequest(this.options.commitChoice, parsed, request.headers);
    const { resolved, revision } = await this.options.service.find(
      withVersionHint(chosen, versionHint(request)),
    );
    reply.headers(revisionHeaders(revision));
    const format: RenderFormat = extension === 'yaml' ? 'yml' : (extension as RenderFormat);
    const query = request.query as Record<string, string | undefined>;
    const resolve = query.resolvePlaceholders !== 'false';
    reply.type(format === 'json' ? 'application/json' : 'text/plain; charset=utf-8');
    return resolved.render(format, resolve, this.options.stripDocumentFromYaml ?? true);
  }

  /** The validated request, once the caller is known to may read it (every route here passes through). */
  private parseRequest(request: FastifyRequest, parts: RawParts): EnvironmentRequest {
    const key = `${parts.name}\u0000${parts.profiles}\u0000${parts.label ?? ''}`;
    let parsed = this.validated.get(key);
    if (!parsed) {
      parsed = validateRequest(parts, this.options.maxProfiles, {
        springRules: this.options.validateProfiles ?? true,
      });
      this.validated.set(key, parsed);
    }
    this.options.requireRead?.(request, parsed);
    return parsed;
  }
}

export interface RawParts {
  name: string;
  profiles: string;
  label: string | null;
}

export function validateRequest(
  parts: RawParts,
  maxProfiles: number,
  rules: ProfileRules = { springRules: true },
): EnvironmentRequest {
  const name = decodeSpringSegment(parts.name);
  const applications = parseApplications(name);
  if (applications.length === 0) {
    throw new ConfbusError(serverErrors.CONFBUS_INVALID_APPLICATION, 'Application name is empty');
  }
  for (const application of applications) {
    const problem = validateApplicationName(application);
    if (problem) throw new ConfbusError(serverErrors.CONFBUS_INVALID_APPLICATION, problem);
  }
  const profilesText = decodeSpringSegment(parts.profiles);
  const profiles = parseProfiles(profilesText);
  if (profiles.length > maxProfiles) {
    throw new ConfbusError(
      serverErrors.CONFBUS_TOO_MANY_PROFILES,
      `At most ${maxProfiles} profiles may be requested (confbus.server.max-profiles), got ${profiles.length}`,
    );
  }
  // Spring checks the list as it was sent (`dev,,db` and `dev, db` are bad); without its rules, blanks are dropped.
  const entries = rules.springRules && profilesText !== '' ? profilesText.split(',') : profiles;
  for (const profile of entries) {
    const problem = validateProfile(profile, rules);
    if (problem) {
      const where = entries.length > 1 ? ` (in ${JSON.stringify(profilesText)})` : '';
      throw new ConfbusError(serverErrors.CONFBUS_INVALID_PROFILE, `${problem}${where}`);
    }
  }
  let label: string | null = null;
  if (parts.label !== null && parts.label !== '') {
    label = decodeSpringSegment(parts.label);
    requireValidLabel(label);
  }
  return { name, applications, profilesText, profiles, label };
}

function versionHint(request: FastifyRequest): string | undefined {
  const hint = readVersionHint(request.headers);
  if (hint === null) {
    throw new ConfbusError(
      serverErrors.CONFBUS_BAD_VERSION_HINT,
      `Header ${VERSION_HINT_HEADER} must be a full commit id (40 or 64 hex digits)`,
    );
  }
  return hint;
}
