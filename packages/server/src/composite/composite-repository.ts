/**
 * Spring's composite backend (CompositeEnvironmentRepository) as the repository port: several member backends
 * (git, native, jdbc, redis), each behind its own EnvironmentService, whose property sources are concatenated
 * in the members' order. It declares `propertySources`, so the composite's own EnvironmentService caches,
 * decrypts and renders the merged environment as for any other backend.
 *
 * The revision is combined: with one member it is that member's commit (Spring copies version and state from
 * a single member), with several a digest of the members' commits (Spring answers version null then: see
 * `version`), so a change in any member is a new revision and the environment cache is bypassed.
 * `fail-on-composite-error=false` skips a member that cannot resolve or read, as Spring logs and skips it.
 * The plain-text endpoint searches the members' own locations (composite-resources.ts).
 */
import { createHash } from 'node:crypto';
import { ConfbusError, type Logger, type PropertySource } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type {
  ConfigRepository,
  PropertySourceQuery,
  PropertySourceReader,
  RepositoryHealth,
  RepositoryRefresh,
  ResolvedRevision,
  ResourceLocation,
} from '../environment/config-repository.js';
import type { EnvironmentRequest, EnvironmentService } from '../environment/environment-service.js';
import { serverErrors } from '../errors.js';
import { memberLocations } from './composite-resources.js';

/** Spring's Ordered.LOWEST_PRECEDENCE: the order of a git, native or redis member that sets none. */
export const LOWEST_PRECEDENCE = 2_147_483_647;

export interface CompositeMember {
  /** `composite[<index>] (<type>)`: health and error messages. */
  readonly name: string;
  readonly repository: ConfigRepository;
  /** The member's environments (acceptEmpty, no decryption: the composite's own service does both). */
  readonly environments: EnvironmentService;
  close(): Promise<void>;
}

export interface CompositeRepositoryOptions {
  /** In Spring's order (orderMembers()). */
  members: readonly CompositeMember[];
  /** spring.cloud.config.server.fail-on-composite-error (default true). */
  failOnError: boolean;
  logger: Logger;
}

/**
 * Spring's member order: each member's `order` (its own, else its backend's default: LOWEST_PRECEDENCE, JDBC's
 * LOWEST_PRECEDENCE - 10), a stable sort, lowest first — so a JDBC member without an order comes before the
 * git, native and redis members without one. (CompositeEnvironmentBeanFactoryPostProcessor means to give an
 * unordered member its index + 1, but only for properties that implement Ordered, which none of Spring's do:
 * checked against Spring Cloud Config Server 5.0.6 by the differential test.)
 */
export function orderMembers<T extends { readonly order: number }>(members: readonly T[]): T[] {
  return members
    .map((member, index) => ({ member, index }))
    .sort((a, b) => a.member.order - b.member.order || a.index - b.index)
    .map(({ member }) => member);
}

/** The separator between member commits in a combined revision's digest input. */
const SEPARATOR = '\u0000';

export class CompositeRepository implements ConfigRepository, PropertySourceReader, RepositoryRefresh {
  readonly propertySources: PropertySourceReader = this;
  readonly refresh?: RepositoryRefresh;
  private readonly listeners: ((changed: boolean) => void)[] = [];
  /**
   * Members skipped so far (fail-on-composite-error=false). Part of the combined revision, so an environment
   * built without a member is never served from the cache once that member answers again.
   */
  private skips = 0;

  constructor(private readonly options: CompositeRepositoryOptions) {
    if (options.members.length === 0) throw new Error('a composite needs at least one member');
    if (options.members.some((member) => member.repository.refresh)) this.refresh = this;
    for (const member of options.members) {
      member.repository.refresh?.onChecked((changed) => {
        for (const listener of this.listeners) listener(changed);
      });
    }
  }

  get members(): readonly CompositeMember[] {
    return this.options.members;
  }

  async resolve(label: string | null, atLeast?: string): Promise<ResolvedRevision> {
    return this.combine(label, (member) => member.repository.resolve(label, atLeast));
  }

  /** Known at once only when every member knows its revision at once. */
  resolveNow(label: string | null, atLeast?: string): ResolvedRevision | undefined {
    const revisions: (ResolvedRevision | undefined)[] = [];
    for (const member of this.options.members) {
      const now = member.repository.resolveNow?.(label, atLeast);
      if (now === undefined) return undefined;
      revisions.push(now);
    }
    return this.combined(label, revisions);
  }

  listFiles(): Promise<readonly string[]> {
    return Promise.resolve([]);
  }

  readFile(): Promise<Buffer | undefined> {
    return Promise.resolve(undefined);
  }

  /** The members' sources in order; a member that fails is skipped when fail-on-composite-error=false. */
  async read(query: PropertySourceQuery): Promise<PropertySource[]> {
    // The request's own label: each member applies its own default (the combined revision's label is '').
    const label = query.label === '' ? null : query.label;
    const request = {
      name: query.applications.join(','),
      applications: query.applications,
      profilesText: query.profiles.join(','),
      profiles: query.profiles,
      label,
    };
    const answers = await Promise.all(
      this.options.members.map(async (member) => {
        try {
          const { resolved } = await member.environments.find(request);
          return resolved.environment.propertySources;
        } catch (error) {
          return this.memberFailed(member, error);
        }
      }),
    );
    return answers.flat();
  }

  /** Each member's plain-text locations in order; a member that fails is skipped as in read(). */
  resourceLocations(request: EnvironmentRequest): Promise<ResourceLocation[]> {
    return memberLocations(this.options.members, request, (member, error) =>
      this.memberFailed(member, error),
    );
  }

  /** Spring: one member's version is copied, several give none. */
  version(commit: string): string | null {
    return this.options.members.length === 1 ? commit : null;
  }

  async start(): Promise<void> {
    await Promise.all(
      this.options.members.map(async (member) => {
        try {
          await member.repository.start();
        } catch (error) {
          if (this.options.failOnError) throw error;
          this.options.logger.warn(
            { err: messageOf(error), member: member.name },
            'composite member did not start',
          );
        }
      }),
    );
  }

  async open(): Promise<void> {
    for (const member of this.options.members) await member.repository.open?.();
  }

  /** The whole: available when every member is (or, skipping failures, when one is); per member: memberHealth(). */
  health(): RepositoryHealth {
    const healths = this.memberHealth().map(({ health }) => health);
    const available = this.options.failOnError
      ? healths.every((health) => health.available)
      : healths.some((health) => health.available);
    const stale = healths.some((health) => health.stale);
    const errors = healths.flatMap((health) => (health.lastError ? [health.lastError] : []));
    return {
      uri: `composite(${healths.map((health) => health.uri).join(', ')})`,
      available,
      ...(errors.length > 0 ? { lastError: errors.join('; ') } : {}),
      stale,
      checks: healths.reduce((sum, health) => sum + health.checks, 0),
      fetches: healths.reduce((sum, health) => sum + health.fetches, 0),
    };
  }

  memberHealth(): { name: string; health: RepositoryHealth }[] {
    return this.options.members.map((member) => ({ name: member.name, health: member.repository.health() }));
  }

  async refreshNow(): Promise<{ readonly stale: boolean }> {
    const results = await Promise.all(
      this.options.members.map((member) => member.repository.refresh?.refreshNow() ?? { stale: false }),
    );
    return { stale: results.some((result) => result.stale) };
  }

  resolveFetched(label: string | null): Promise<ResolvedRevision> {
    return this.combine(label, (member) =>
      member.repository.refresh
        ? member.repository.refresh.resolveFetched(label)
        : member.repository.resolve(label),
    );
  }

  onChecked(listener: (changed: boolean) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    await Promise.all(this.options.members.map((member) => member.close()));
  }

  private async combine(
    label: string | null,
    resolveMember: (member: CompositeMember) => Promise<ResolvedRevision>,
  ): Promise<ResolvedRevision> {
    const revisions = await Promise.all(
      this.options.members.map(async (member) => {
        try {
          return await resolveMember(member);
        } catch (error) {
          this.memberFailed(member, error);
          return undefined;
        }
      }),
    );
    return this.combined(label, revisions);
  }

  /** One member: its revision; several: a digest of theirs (a skipped member counts as absent). */
  private combined(
    label: string | null,
    revisions: readonly (ResolvedRevision | undefined)[],
  ): ResolvedRevision {
    const stale = revisions.some((revision) => revision?.stale === true);
    if (revisions.length === 1 && revisions[0] && this.skips === 0)
      return { ...revisions[0], label: label ?? '' };
    const commit = createHash('sha1')
      .update([this.skips, ...revisions.map((revision) => revision?.commit ?? '-')].join(SEPARATOR))
      .digest('hex');
    return { label: label ?? '', commit, stale };
  }

  /** Throws when the composite fails on a member's error; otherwise logs and skips the member. */
  private memberFailed(member: CompositeMember, error: unknown): never[] {
    // A lone member is never skipped (Spring's findOne calls it outside the loop that skips): an empty answer
    // would hide the outage from every client.
    if (this.options.failOnError || this.options.members.length === 1) {
      if (error instanceof ConfbusError) throw error;
      throw new ConfbusError(
        serverErrors.CONFBUS_REPOSITORY_UNAVAILABLE,
        `${member.name}: ${messageOf(error)}`,
      );
    }
    this.skips++;
    this.options.logger.warn({ err: messageOf(error), member: member.name }, 'composite member skipped');
    return [];
  }
}
