/**
 * Builds Spring environments from a repository at a commit, and caches them.
 * A cache hit costs no git process and no YAML parse: the key is (commit, applications, profiles, label),
 * and a commit never changes. Concurrent misses for the same key share one build, so a thousand clients
 * re-fetching after a push cost one read per (commit, application, profiles).
 */
import { type Environment, ConfbusError } from '@confbus/core';
import { propertySourcesOf } from '@confbus/core/internal';
import { serverErrors } from '../errors.js';
import type { BuildGate } from './build-gate.js';
import type { ConfigFileParser } from './config-file-parser.js';
import type { RepositoryFiles, ResolvedRevision, ResourceLocation } from './config-repository.js';
import type { EnvironmentCaches } from './environment-caches.js';
import { loadDocuments } from './environment-documents.js';
import type { EnvironmentRequest } from './environment-request.js';
import type { EnvironmentWorkers } from './environment-workers.js';
import type { FoundEnvironment } from './environment-finder.js';
import type { LruCache } from '../support/lru-cache.js';
import { propertySourcesBytes, servedObjectBytes } from './memory-estimates.js';
import { ParsedFiles } from './parsed-files.js';
import { ResolvedEnvironment } from './resolved-environment.js';
import {
  type ServedCommitPolicy,
  composeServedCommits,
  pinnedRevision,
  servedRevisionNow,
} from './served-commit.js';
import { TimeSlice } from '../support/time-slice.js';
import { directoriesOf, expandSearchDirectories, onePerFolder } from './search-directories.js';

export { type EnvironmentRequest, environmentRequest, withVersionHint } from './environment-request.js';

export interface EnvironmentServiceOptions {
  repository: RepositoryFiles;
  /** Shown in property-source names: `<uri>/<path>`, credentials already stripped. */
  displayUri: string;
  searchPaths: readonly string[];
  /** The server's environment and parsed-file caches, shared with every other repository's service. */
  caches: EnvironmentCaches;
  /** Largest summed size of the files one environment is built from (confbus.server.max-environment-bytes). */
  maxEnvironmentBytes: number;
  parser: ConfigFileParser;
  /** Where renderings of large environments are made (resolved-environment.ts); none: inline. */
  workers?: EnvironmentWorkers;
  acceptEmpty: boolean;
  /** Applied once to each environment built (server-side `{cipher}` decryption); the result is what is cached. */
  transform?: (environment: Environment) => Promise<Environment>;
  /** Bounds the builds running and waiting, shared by every repository's service (build-gate.ts). */
  buildGate?: BuildGate;
}

export class ApplicationNotFoundError extends ConfbusError<'CONFBUS_APPLICATION_NOT_FOUND'> {
  override readonly name = 'ApplicationNotFoundError';
  constructor(message: string) {
    super(serverErrors.CONFBUS_APPLICATION_NOT_FOUND, message);
  }
}

export class EnvironmentService {
  private readonly building = new Map<string, Promise<ResolvedEnvironment>>();
  /** The shared cache of environments (this.options.caches', held here for the hot path). */
  private readonly environments: LruCache<string, ResolvedEnvironment>;
  /** This service's prefix of the environment cache's keys. */
  private readonly namespace: string;
  private readonly uri: string;
  /**
   * The cache key last built for each request object: the fast path asks with the same object for a URL, and a
   * key built once keeps its hash (a new concatenation is flattened and hashed again on every lookup).
   */
  private readonly keys = new WeakMap<EnvironmentRequest, { commit: string; key: string }>();
  /**
   * A commit's directories and files as sets, made once per file list (a repository hands out the same list for
   * a commit while it keeps it): walking 2,000 paths for each of 1,500 environments of a push cost 0.5 s.
   */
  private readonly trees = new WeakMap<
    readonly string[],
    { directories: Set<string>; present: ReadonlySet<string> }
  >();
  /** Builds, for tests and benchmarks that check "one read per (commit, app, profiles)"; also exported as metrics. */
  builds = 0;
  cacheHits = 0;
  cacheMisses = 0;

  /** The repository's files, parsed through the shared cache (also read by /monitor's parse check). */
  readonly files: ParsedFiles;
  /** Which commit each request is served (served-commit.ts); none: the label's head. */
  private servedCommit: ServedCommitPolicy | undefined;

  constructor(private readonly options: EnvironmentServiceOptions) {
    this.files = new ParsedFiles(options);
    this.namespace = options.caches.namespace();
    this.environments = options.caches.environments;
    this.uri = options.displayUri.replace(/\/+$/, '');
  }

  async find(
    request: EnvironmentRequest,
  ): Promise<{ resolved: ResolvedEnvironment; revision: ResolvedRevision }> {
    const { repository } = this.options;
    const revision =
      request.lastFetched && repository.refresh
        ? await repository.refresh.resolveFetched(request.label)
        : await repository.resolve(request.label, request.atLeast);
    return this.findAtRevision(request, await this.servedRevision(request, revision));
  }

  /**
   * Sets the policy deciding which commit a request is served (the contract gate), set once at wiring: the
   * policy itself builds environments through findAtRevision, so it cannot be a constructor option.
   */
  serveCommitsBy(policy: ServedCommitPolicy): void {
    this.servedCommit = policy;
  }

  /** Puts a policy before the one set (rollouts on push decide before the contract gate judges their answer). */
  serveCommitsFirstBy(policy: ServedCommitPolicy): void {
    this.servedCommit = this.servedCommit ? composeServedCommits(policy, this.servedCommit) : policy;
  }

  /** The revision a request is served: a rollout's pin, else the contract gate's choice, else the head. */
  private async servedRevision(
    request: EnvironmentRequest,
    head: ResolvedRevision,
  ): Promise<ResolvedRevision> {
    const policy = this.servedCommit;
    return pinnedRevision(request, head) ?? (policy ? await policy.decide(request, head) : head);
  }

  /** Files parsed (not found in the parsed-file cache). */
  get parses(): number {
    return this.files.parses;
  }

  /** The prefix of its property-source names (`<uri>/<path>`): the repository's uri without credentials. */
  get displayUri(): string {
    return this.uri;
  }

  /** find()'s answer when it is a cache hit at a revision known at once (ConfigRepository.resolveNow). */
  findNow(request: EnvironmentRequest): FoundEnvironment | undefined {
    const head = this.options.repository.resolveNow?.(request.label, request.atLeast);
    if (head === undefined) return undefined;
    const revision = servedRevisionNow(request, head, this.servedCommit);
    if (revision === undefined) return undefined;
    const hit = this.environments.get(this.keyOf(request, revision));
    if (hit === undefined) return undefined;
    this.cacheHits++;
    return { resolved: hit, revision };
  }

  /** At a revision, whatever the served-commit policy says (the gate judges by it); `request.label` is echoed. */
  async findAtRevision(
    request: EnvironmentRequest,
    revision: ResolvedRevision,
  ): Promise<{ resolved: ResolvedEnvironment; revision: ResolvedRevision }> {
    const key = this.keyOf(request, revision);
    const { environments } = this;
    const hit = environments.get(key);
    if (hit) {
      this.cacheHits++;
      return { resolved: hit, revision };
    }
    this.cacheMisses++;
    let pending = this.building.get(key);
    if (!pending) {
      const build = () => this.build(request, revision.commit, revision.label, key);
      const gate = this.options.buildGate;
      pending = (gate ? gate.run(build) : build()).finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    const resolved = await pending;
    environments.set(key, resolved);
    return { resolved, revision };
  }

  /** Lets go of what is cached at `commit` (a head the contract gate superseded); asked again, built again. */
  forgetCommit(commit: string): number {
    return this.environments.deleteWhere((key) => key.startsWith(`${this.namespace}${commit}\u0000`));
  }

  private keyOf(request: EnvironmentRequest, revision: ResolvedRevision): string {
    const known = this.keys.get(request);
    if (known?.commit === revision.commit) return known.key;
    const key = `${this.namespace}${revision.commit}\u0000${request.name}\u0000${request.profilesText}\u0000${request.label ?? ''}`;
    this.keys.set(request, { commit: revision.commit, key });
    return key;
  }

  /**
   * The directories searched for a request at a revision (root first, then the expanded search paths) and
   * every file present: the environment and the plain-text endpoint look in the same places.
   */
  async searchDirectories(
    request: EnvironmentRequest,
    revision: Pick<ResolvedRevision, 'commit' | 'label'>,
  ): Promise<{ directories: string[]; present: ReadonlySet<string> }> {
    const files = await this.options.repository.listFiles(revision.commit);
    let tree = this.trees.get(files);
    if (tree === undefined) {
      tree = { directories: directoriesOf(files), present: new Set(files) };
      this.trees.set(files, tree);
    }
    const expanded = expandSearchDirectories(
      this.options.searchPaths,
      { applications: request.applications, profiles: request.profiles, label: revision.label },
      tree.directories,
    );
    const { repository } = this.options;
    const directories = repository.folderOf
      ? onePerFolder(expanded, (directory) => repository.folderOf?.(directory) ?? directory)
      : expanded;
    return { directories, present: tree.present };
  }

  /** Where the plain-text endpoint looks for a request served at `revision`, in order (RepositoryFiles). */
  async resourceLocations(
    request: EnvironmentRequest,
    revision: ResolvedRevision,
  ): Promise<ResourceLocation[]> {
    const { repository } = this.options;
    if (repository.resourceLocations) return repository.resourceLocations(request);
    const { directories, present } = await this.searchDirectories(request, revision);
    const read = (path: string) => repository.readFile(revision.commit, path);
    return directories.map((directory) => ({ directory, present, read }));
  }

  /** Builds the environment cached under `key` (which it asks the cache to weigh again as it grows). */
  private async build(
    request: EnvironmentRequest,
    commit: string,
    effectiveLabel: string,
    key: string,
  ): Promise<ResolvedEnvironment> {
    this.builds++;
    // Each step walks a large environment's documents or properties: the event loop gets turns between them.
    const slice = new TimeSlice();
    const { propertySources, objectBytes } = await this.loadSources(request, commit, effectiveLabel, slice);
    if (propertySources.length === 0 && !this.options.acceptEmpty)
      throw new ApplicationNotFoundError(`Application Not Found: no configuration for '${request.name}'`);
    const reader = this.options.repository.propertySources;
    const environment: Environment = {
      name: request.name,
      profiles: [request.profilesText],
      label: request.label,
      version: reader?.version ? reader.version(commit) : commit,
      state: null,
      propertySources,
    };
    const served = (await this.options.transform?.(environment)) ?? environment;
    const { environments } = this;
    return new ResolvedEnvironment(served, {
      stored: environment,
      objectBytes: servedObjectBytes(objectBytes, environment, served),
      grown: () => environments.reweigh(key),
      ...(this.options.workers ? { workers: this.options.workers } : {}),
    });
  }

  /** The property sources of a request at a commit: the backend's own (a database), else its files' in order. */
  private async loadSources(
    request: EnvironmentRequest,
    commit: string,
    effectiveLabel: string,
    slice: TimeSlice,
  ): Promise<{ propertySources: Environment['propertySources']; objectBytes: number }> {
    const reader = this.options.repository.propertySources;
    if (reader) {
      const query = { applications: request.applications, profiles: request.profiles, label: effectiveLabel };
      const propertySources = await reader.read(query, commit);
      return { propertySources, objectBytes: propertySourcesBytes(propertySources) };
    }
    const { directories, present } = await this.searchDirectories(request, {
      commit,
      label: effectiveLabel,
    });
    const { documents, objectBytes } = await loadDocuments(
      { files: this.files, maxEnvironmentBytes: this.options.maxEnvironmentBytes },
      { request, commit, directories, present },
      slice,
    );
    const propertySources = await slice.run(() =>
      this.named(propertySourcesOf(documents, [...request.profiles], this.uri)),
    );
    return { propertySources, objectBytes };
  }

  /** Renames `<uri>/<path>[ (document #N)]` sources when the repository names its files itself. */
  private named(sources: Environment['propertySources']): Environment['propertySources'] {
    const { displayNameOf } = this.options.repository;
    if (!displayNameOf) return sources;
    const prefix = `${this.uri}/`;
    return sources.map((source) => {
      const match = / \(document #\d+\)$/.exec(source.name);
      const path = source.name.slice(prefix.length, match ? match.index : undefined);
      return { ...source, name: `${displayNameOf.call(this.options.repository, path)}${match?.[0] ?? ''}` };
    });
  }
}
