/**
 * Mirrors made from a uri with `{application}`, `{profile}` or `{label}` (one repository per application).
 * The request chooses the uri, so this is where a client could make the server connect elsewhere or clone without
 * bound. Two rules prevent it: a value may fill the template's path only (uri-template.ts: checked at start for
 * the template, per request for the value), so a request can only choose among sibling repositories of the
 * template; and at most `confbus.server.git.max-placeholder-repositories` mirrors exist at once — the least
 * recently used one is closed and its directory removed when another is needed (never one a request is using:
 * with every slot busy the request gets 503), and a mirror whose first clone failed is dropped at once, so names
 * that lead nowhere hold no slot and no disk (the mirror itself removed what its clone made before the failure
 * reached here). A request for a uri whose mirror is being closed waits for that, so a new mirror never meets the
 * old one's files half removed. Spring keeps every one it ever made.
 */
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';
import { RepositoryUnavailableError } from '../git/index.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import type { FoundEnvironment } from '../environment/environment-finder.js';
import type { RepositoryDefinition } from './repository-settings.js';
import type { OpenRepository, ServedRepository } from './served-repository.js';
import { expandUriTemplate } from './uri-template.js';

export interface PlaceholderValues {
  application: string;
  profile: string;
  label: string | null;
}

export class PlaceholderRepositories {
  /** Insertion order is recency order: a hit is moved to the end, the first entry is the eviction candidate. */
  private readonly active = new Map<string, ServedRepository>();
  /** Requests using each mirror now: those are never evicted under them. */
  private readonly leases = new WeakMap<ServedRepository, number>();
  /** Evicted mirrors still closing (and removing their directory), by uri. */
  private readonly closing = new Map<string, Promise<void>>();
  /** Counts of mirrors closed here, so totals over the pool never go backwards. */
  readonly retired = { builds: 0, parses: 0, cacheHits: 0, cacheMisses: 0 };

  constructor(
    private readonly definition: RepositoryDefinition,
    private readonly open: OpenRepository,
    private readonly maxRepositories: number,
    private readonly onEvicted: (name: string) => void,
  ) {}

  /**
   * Finds the environment in the mirror for these values, made (and cloned) if need be, and hands it to `use`. A mirror is leased while a
   * request uses it and only idle ones are evicted; when every slot is busy the request is refused with 503
   * rather than growing past the bound.
   */
  async serve<T>(
    values: PlaceholderValues,
    request: EnvironmentRequest,
    use: (served: ServedRepository, found: FoundEnvironment) => Promise<T>,
  ): Promise<T> {
    const uri = this.expand(values);
    await this.closing.get(uri);
    const served = this.lease(uri);
    try {
      let found: FoundEnvironment;
      try {
        found = await served.environments.find(request);
      } catch (error) {
        throw this.failed(served, error);
      }
      return await use(served, found);
    } finally {
      this.leases.set(served, (this.leases.get(served) ?? 1) - 1);
    }
  }

  private lease(uri: string): ServedRepository {
    let served = this.active.get(uri);
    if (served) {
      this.active.delete(uri);
    } else {
      while (this.active.size >= this.maxRepositories) {
        const idle = [...this.active].find(([, candidate]) => !this.leases.get(candidate));
        if (!idle) {
          throw new ConfbusError(
            serverErrors.CONFBUS_TOO_MANY_REPOSITORIES,
            `All ${this.maxRepositories} mirrors of repository '${this.definition.name}' are in use ` +
              '(confbus.server.git.max-placeholder-repositories); retry later',
          );
        }
        this.evict(idle[0]);
      }
      served = this.open(this.definition, uri, `${this.definition.name}[${uri}]`);
    }
    this.active.set(uri, served);
    this.leases.set(served, (this.leases.get(served) ?? 0) + 1);
    return served;
  }

  /**
   * A mirror that never cloned goes at once, and the failure becomes Spring's answer for it, 404
   * (NoSuchRepositoryException); other errors pass unchanged.
   */
  private failed(served: ServedRepository, error: unknown): unknown {
    const health = served.mirror.health();
    if (!(error instanceof RepositoryUnavailableError) || health.lastSuccessAt !== undefined) return error;
    // Its directory is already as it was before the clone (GitMirror.start): closing it is enough.
    for (const [uri, candidate] of this.active) if (candidate === served) this.evict(uri, false);
    return new ConfbusError(
      serverErrors.CONFBUS_REPOSITORY_NOT_FOUND,
      `Cannot clone or checkout repository: ${health.uri}`,
    );
  }

  all(): ServedRepository[] {
    return [...this.active.values()];
  }

  async close(): Promise<void> {
    await Promise.all([...this.all().map((served) => served.close()), ...this.closing.values()]);
    this.active.clear();
  }

  private evict(uri: string, removeFiles = true): void {
    const served = this.active.get(uri);
    if (!served) return;
    this.active.delete(uri);
    const { environments } = served;
    this.retired.builds += environments.builds;
    this.retired.parses += environments.parses;
    this.retired.cacheHits += environments.cacheHits;
    this.retired.cacheMisses += environments.cacheMisses;
    this.onEvicted(served.name);
    const closed = served
      .close({ removeFiles })
      .catch(() => undefined)
      .finally(() => {
        if (this.closing.get(uri) === closed) this.closing.delete(uri);
      });
    this.closing.set(uri, closed);
  }

  private expand({ application, profile, label }: PlaceholderValues): string {
    const { uri, defaultLabel, name } = this.definition;
    return expandUriTemplate(uri, { application, profile, label: label ?? defaultLabel }, name);
  }
}
