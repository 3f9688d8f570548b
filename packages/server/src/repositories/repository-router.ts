/**
 * Chooses the repository a request is served from, as Spring's MultipleJGitEnvironmentRepository does: the
 * named repositories in configuration order, each whose patterns match `{application}/{profile}` (for a uri
 * template, one candidate per requested profile, last first), the first that yields an environment wins; a
 * candidate that fails (unknown label, unreachable, declined) passes the request on; the default repository
 * answers everything else, and its errors are the answer. A request value a uri template refuses is answered
 * (400) wherever it is met: it is not a name to try elsewhere. How one configured repository is tried is
 * repository-entry.ts's.
 */
import type { Logger } from '@confbus/core';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import type { EnvironmentFinder, FoundEnvironment } from '../environment/environment-finder.js';
import { LruCache } from '../support/lru-cache.js';
import type { MirrorHealth } from '../git/index.js';
import { RepositoryEntry, type UseEnvironment } from './repository-entry.js';
import type { RepositoryDefinition } from './repository-settings.js';
import type { OpenRepository, ServedRepository } from './served-repository.js';

export interface RepositoryRouterOptions {
  defaultRepository: RepositoryDefinition;
  named: readonly RepositoryDefinition[];
  open: OpenRepository;
  /** confbus.server.git.max-placeholder-repositories, per uri template. */
  maxPlaceholderRepositories: number;
  logger: Pick<Logger, 'debug' | 'info'>;
}

export class RepositoryRouter implements EnvironmentFinder {
  private readonly defaultEntry: RepositoryEntry;
  private readonly named: RepositoryEntry[];
  /** Which named repositories match a request: computed once per (application, profiles). */
  private readonly matching = new LruCache<string, RepositoryEntry[]>(2000);

  constructor(private readonly options: RepositoryRouterOptions) {
    this.defaultEntry = new RepositoryEntry(options.defaultRepository, options);
    this.named = options.named.map((definition) => new RepositoryEntry(definition, options));
  }

  /** The default repository's mirror when its uri is not a template (the console and webhook work on it). */
  get defaultRepository(): ServedRepository | undefined {
    return this.defaultEntry.fixed;
  }

  find(request: EnvironmentRequest): Promise<FoundEnvironment> {
    // One fixed repository and nothing else (the usual set-up): nothing to route, so no turn spent routing.
    if (this.named.length === 0 && this.defaultEntry.fixed)
      return this.defaultEntry.fixed.environments.find(request);
    return this.serve(request, (_served, found) => Promise.resolve(found));
  }

  /**
   * find()'s answer when known at once (EnvironmentService.findNow): the first repository serve() would try, when
   * it is a fixed one holding the environment in its cache (serve() would answer from that hit). A uri template,
   * or a miss that serve() might pass on to the next repository, is left to find(). With 20 named repositories
   * configured, cached answers cost 10% more CPU through find()'s promises than through this.
   */
  findNow(request: EnvironmentRequest): FoundEnvironment | undefined {
    for (const entry of this.matchingEntries(request)) {
      if (entry.fixed && !entry.patterns.accepts(request.name, request.profilesText)) continue;
      return entry.fixed?.environments.findNow(request);
    }
    return this.defaultEntry.fixed?.environments.findNow(request);
  }

  /**
   * Finds the request's environment in the repository that serves it and hands both to `use` (the
   * plain-text endpoint reads a file from that same repository and commit). Only failures to find the
   * environment pass the request on to the next repository; a failure in `use` is the answer.
   */
  async serve<T>(request: EnvironmentRequest, use: UseEnvironment<T>): Promise<T> {
    for (const entry of this.matchingEntries(request)) {
      if (entry.fixed && !entry.patterns.accepts(request.name, request.profilesText)) continue;
      for (const profile of entry.attempts(request)) {
        const outcome = await entry.tryServe(request, profile, use);
        if ('value' in outcome) return outcome.value;
        this.options.logger.debug(
          { repository: entry.definition.name, err: outcome.missed },
          'Repository could not serve the request; trying the next one',
        );
      }
    }
    return this.serveDefault(request, use);
  }

  /** The default repository's answer, the last resort: its errors are the answer. */
  private async serveDefault<T>(request: EnvironmentRequest, use: UseEnvironment<T>): Promise<T> {
    const entry = this.defaultEntry;
    const profile = entry.attempts(request)[0] as string;
    if (!entry.fallsBackToMaster(request)) return entry.serve(request, profile, use);
    const outcome = await entry.tryServe(request, profile, use);
    if ('value' in outcome) return outcome.value;
    this.options.logger.info(
      { repository: entry.definition.name, err: outcome.missed },
      'Cannot serve the default label main; trying the master label instead',
    );
    // The request keeps its label (null stays null in the answer, as Spring echoes it); the master
    // repository's mirror resolves `main` to its master branch under try-master-branch.
    return entry.serve(request, profile, use, 'master');
  }

  /** Checks every fixed repository's basedir before the port opens: a wrong one throws, naming the setting. */
  async open(): Promise<void> {
    await Promise.all(this.fixedEntries().map((entry) => (entry.fixed as ServedRepository).mirror.open?.()));
  }

  /**
   * Starts the first clones without waiting for them (the port opens meanwhile): the repositories that ask for
   * it (clone-on-start) and the default one; the others on first use. Resolves once the clone-on-start ones
   * have landed, to the first of their failures (which must fail the start, as in Spring), else undefined.
   */
  async startCloning(onBackgroundFailure: (name: string, error: unknown) => void): Promise<unknown> {
    const failures = await Promise.all(
      this.fixedEntries().map(async (entry): Promise<unknown> => {
        const mirror = (entry.fixed as ServedRepository).mirror;
        if (entry.definition.cloneOnStart)
          return mirror.start().then(
            () => undefined,
            (error: unknown) => error,
          );
        if (entry === this.defaultEntry)
          void mirror.start().catch((error: unknown) => onBackgroundFailure(entry.definition.name, error));
        return undefined;
      }),
    );
    return failures.find((failure) => failure !== undefined);
  }

  /**
   * Every configured repository, the default one first, then the named ones in configuration order, each with
   * the mirrors it serves from now: its one mirror, or for a uri template those made so far (the console's
   * overview).
   */
  configured(): Array<{ definition: RepositoryDefinition; served: ServedRepository[] }> {
    return [this.defaultEntry, ...this.named].map((entry) => ({
      definition: entry.definition,
      served: entry.served(),
    }));
  }

  /** Every repository being served, by name, for health. */
  health(): Record<string, MirrorHealth> {
    const out: Record<string, MirrorHealth> = {};
    for (const served of this.allServed()) {
      out[served.name] = served.mirror.health();
      // A composite's members are listed beside it, each with its own status (composite/composite-repository.ts).
      for (const member of served.mirror.memberHealth?.() ?? [])
        out[`${served.name}/${member.name}`] = member.health;
    }
    return out;
  }

  get builds(): number {
    return this.stats.builds;
  }

  get cacheHits(): number {
    return this.stats.cacheHits;
  }

  get cacheMisses(): number {
    return this.stats.cacheMisses;
  }

  /** Summed over every repository, including placeholder mirrors closed since. */
  get stats(): { builds: number; parses: number; cacheHits: number; cacheMisses: number } {
    const totals = { builds: 0, parses: 0, cacheHits: 0, cacheMisses: 0 };
    for (const entry of [this.defaultEntry, ...this.named]) {
      for (const key of Object.keys(totals) as Array<keyof typeof totals>) {
        totals[key] += entry.pool?.retired[key] ?? 0;
      }
    }
    for (const { environments } of this.allServed()) {
      totals.builds += environments.builds;
      totals.parses += environments.parses;
      totals.cacheHits += environments.cacheHits;
      totals.cacheMisses += environments.cacheMisses;
    }
    return totals;
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.defaultEntry, ...this.named].map((entry) => entry.pool?.close() ?? entry.fixed?.close()),
    );
  }

  private fixedEntries(): RepositoryEntry[] {
    return [this.defaultEntry, ...this.named].filter((entry) => entry.fixed);
  }

  private allServed(): ServedRepository[] {
    return [this.defaultEntry, ...this.named].flatMap((entry) => entry.served());
  }

  private matchingEntries(request: EnvironmentRequest): RepositoryEntry[] {
    if (this.named.length === 0) return this.named;
    const key = `${request.name}\u0000${request.profilesText}`;
    let entries = this.matching.get(key);
    if (!entries) {
      entries = this.named.filter((entry) => entry.patterns.matches(request.name, request.profiles));
      this.matching.set(key, entries);
    }
    return entries;
  }
}
