/**
 * What a commit holds that every contract verdict at it reads (its files, the repository's contracts, the profiles
 * its documents name, the paths changed since its parent), read once per commit and shared by every application
 * judged there. Apart from commit-verdicts.ts because reading a commit is one job and judging an application
 * another: this module knows the repository and the parsed-contract cache, not verdicts.
 */
import { eachWithin, messageOf } from '@confbus/core/internal';
import {
  type CheckTarget,
  type Contract,
  EVERY_APPLICATION,
  type SchemaCompiler,
  checkTargets,
  contractApplicationOf,
  isConfigPath,
  parseContract,
  profilesActivating,
  stemOf,
} from '@confbus/contracts';
import type { RepositoryFiles } from '../environment/config-repository.js';
import type { EnvironmentService } from '../environment/environment-service.js';
import { LruCache } from '../support/lru-cache.js';
import { changedPaths, changedSinceOnce } from './commit-changes.js';

/** What a commit holds that every verdict at it reads: files, repository contracts, profiles documents name. */
export interface CommitScope {
  readonly commit: string;
  readonly files: readonly string[];
  readonly blobIds: ReadonlyMap<string, string> | undefined;
  readonly contracts: readonly Contract[];
  /** Contract files that do not read, by the application they guard (EVERY_APPLICATION: all). */
  readonly broken: ReadonlyMap<string, string>;
  /** The profiles each configuration file's documents activate on: read once, when a verdict needs targets. */
  documentProfiles(): Promise<ReadonlyMap<string, readonly string[]>>;
  /** The targets, by application, per set of applications with published contracts (targetsOf). */
  readonly targets: Map<string, Map<string, CheckTarget[]>>;
  /** Applications with a contract or a configuration file of their own (a changed file is attributed to one). */
  readonly known: ReadonlySet<string>;
  /**
   * The paths changed since `parent` (the commit's first parent), worked out once per commit and shared by every
   * application's inherited verdict (commit-verdicts.ts): a diff of 2,000 blob ids for each of 500 applications
   * was a third of a push's CPU.
   */
  changedSince(parent: string): Promise<readonly string[] | undefined>;
}

export interface CommitScopesOptions {
  readonly repository: Pick<RepositoryFiles, 'listFiles' | 'readFile' | 'blobIds'>;
  readonly environments: Pick<EnvironmentService, 'files'>;
  /** The verdicts' compiler: a contract compiled here is not compiled again when validated. */
  readonly compiler: SchemaCompiler;
}

/** Files read for their documents' profiles at once (pipelined through one cat-file process). */
const FILES_AT_ONCE = 32;
const COMMITS_KEPT = 8;

/** The scopes of the last commits read (a failed read is forgotten, so it is tried again when asked again). */
export class CommitScopes {
  readonly #scopes = new LruCache<string, Promise<CommitScope>>(COMMITS_KEPT);
  /** Parsed repository contracts by blob id: an unchanged contract file is not parsed again. */
  readonly #parsed = new LruCache<string, Contract>(10_000);

  constructor(private readonly options: CommitScopesOptions) {}

  /**
   * Lets go of every scope but those of `kept` (a newer head's verdict is in: the scopes of the heads before it
   * are what a push retained, a file list and 2,000 blob ids each; one asked for again is read again).
   */
  retainOnly(kept: ReadonlySet<string>): void {
    this.#scopes.deleteWhere((commit) => !kept.has(commit));
  }

  /** Scopes kept, for tests. */
  get size(): number {
    return this.#scopes.size;
  }

  scopeOf(commit: string): Promise<CommitScope> {
    let scope = this.#scopes.get(commit);
    if (scope === undefined) {
      scope = this.#readScope(commit);
      this.#scopes.set(commit, scope);
      scope.catch(() => this.#scopes.delete(commit));
    }
    return scope;
  }

  async #readScope(commit: string): Promise<CommitScope> {
    const { repository, environments } = this.options;
    const [files, blobIds] = await Promise.all([repository.listFiles(commit), repository.blobIds?.(commit)]);
    const contracts: Contract[] = [];
    const broken = new Map<string, string>();
    await Promise.all(
      files.map(async (path) => {
        const application = contractApplicationOf(path);
        if (application === undefined) return;
        const id = blobIds?.get(path);
        const cached = id === undefined ? undefined : this.#parsed.get(id);
        if (cached !== undefined) return void contracts.push(cached);
        try {
          const bytes = await repository.readFile(commit, path);
          if (bytes === undefined) return;
          const contract = parseContract(path, application, bytes.toString('utf8'));
          this.options.compiler.compile(contract);
          if (id !== undefined) this.#parsed.set(id, contract);
          contracts.push(contract);
        } catch (error) {
          broken.set(application, messageOf(error));
        }
      }),
    );
    contracts.sort((a, b) => a.name.localeCompare(b.name));
    const configFiles = files.filter(isConfigPath);
    let documentProfiles: Promise<Map<string, string[]>> | undefined;
    const readProfiles = async () => {
      const named = new Map<string, string[]>();
      await eachWithin(configFiles, FILES_AT_ONCE, async (path) => {
        const file = await environments.files.readOne(commit, path).catch(() => undefined);
        const profiles = (file?.documents ?? []).flatMap((d) =>
          d.activation ? profilesActivating(d.activation) : [],
        );
        if (profiles.length > 0) named.set(path, profiles);
      });
      return named;
    };
    const known = new Set<string>(contracts.map((c) => c.application));
    for (const path of configFiles) known.add(stemOf(path));
    known.delete(EVERY_APPLICATION);
    const changed = changedSinceOnce(async (parent) => {
      const before = await this.scopeOf(parent);
      return blobIds === undefined || before.blobIds === undefined
        ? undefined
        : changedPaths(before.blobIds, blobIds);
    });
    return {
      commit,
      files,
      blobIds,
      contracts,
      broken,
      documentProfiles: () => (documentProfiles ??= readProfiles()),
      targets: new Map(),
      known,
      changedSince: changed,
    };
  }
}

/**
 * The (application, profile) environments the contracts cover at a commit, all of them or one application's:
 * worked out once per commit and set of applications with published contracts (a walk over every file).
 */
export async function targetsOf(
  scope: CommitScope,
  published: readonly string[],
  applications?: readonly string[],
): Promise<CheckTarget[]> {
  const key = published.join(',');
  let all = scope.targets.get(key);
  if (all === undefined) {
    // A stand-in per application with only published contracts: checkTargets covers those with a contract.
    const standIns = published.map((application) => ({ application, name: '', schema: {} }));
    const found = checkTargets(scope.files, [...scope.contracts, ...standIns, ...brokenStandIns(scope)], {
      documentProfiles: await scope.documentProfiles(),
    });
    const byApplication = new Map<string, CheckTarget[]>();
    for (const target of found) {
      const list = byApplication.get(target.application) ?? [];
      list.push(target);
      byApplication.set(target.application, list);
    }
    all = byApplication;
    scope.targets.clear();
    scope.targets.set(key, all);
  }
  const grouped = all;
  if (applications === undefined) return [...grouped.values()].flat();
  return applications.flatMap((application) => grouped.get(application) ?? []);
}

function brokenStandIns(scope: CommitScope): Contract[] {
  return [...scope.broken.keys()].map((application) => ({ application, name: '', schema: {} }));
}
