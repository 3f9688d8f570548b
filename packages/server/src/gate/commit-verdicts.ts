/**
 * Whether an application's configuration at a commit keeps its contracts: every (application, profile) the
 * contracts cover is built by the server's own EnvironmentService (so a verdict warms the cache clients then
 * read) and validated against the repository's contracts at that commit and the published ones. A verdict is a
 * function of the commit and the published contracts only, so every replica, before or after a restart, reaches
 * the same one. Incremental: an application none of whose files or contracts changed since the parent commit
 * inherits the parent's verdict when it is known; compiled schemas and parsed files are cached by content.
 * What a commit holds that every verdict at it reads (files, contracts, changed paths) is commit-scope.ts's.
 */
import { ConfbusError } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import {
  type CheckTarget,
  EVERY_APPLICATION,
  SchemaCompiler,
  type Violation,
  contractsFor,
  validateEnvironment,
} from '@confbus/contracts';
import type { RepositoryFiles } from '../environment/config-repository.js';
import { type EnvironmentService, environmentRequest } from '../environment/environment-service.js';
import { LruCache } from '../support/lru-cache.js';
import { type CommitScope, CommitScopes, targetsOf } from './commit-scope.js';
import { concerns } from './commit-changes.js';
import type { PublishedContracts } from './published-contracts.js';

/** A violation as the gate reports it: the contracts library's, with the file and line as repository paths. */
export interface GateViolation extends Omit<Violation, 'origin'> {
  /** The repository path the offending value was written in; absent for a key missing altogether. */
  readonly file?: string;
  readonly line?: number;
}

export interface ApplicationVerdict {
  readonly application: string;
  readonly commit: string;
  /** No violation and no error (an application without any contract always passes). */
  readonly passed: boolean;
  readonly violations: readonly GateViolation[];
  /** What could not be judged: a contract that does not read, an environment that does not build. */
  readonly errors: readonly string[];
  /** The (application, profile) environments judged. */
  readonly environments: number;
}

export interface CommitVerdictsOptions {
  readonly repository: Pick<RepositoryFiles, 'listFiles' | 'readFile' | 'blobIds'>;
  readonly environments: Pick<EnvironmentService, 'findAtRevision' | 'files' | 'displayUri'>;
  readonly published: PublishedContracts;
  /** A commit's first parent (none for a root commit): a verdict is inherited along it. */
  readonly firstParent: (commit: string) => Promise<string | undefined>;
  readonly compiler?: SchemaCompiler;
}

const VERDICTS_KEPT = 50_000;
/** A passing verdict's lists: one shared empty array, not two per application and commit. */
const NONE: readonly never[] = Object.freeze([]);

export class CommitVerdicts {
  readonly #scopes: CommitScopes;
  /** Verdicts being worked out, shared by every caller asking meanwhile. */
  readonly #judging = new Map<string, Promise<ApplicationVerdict>>();
  readonly #compiler: SchemaCompiler;
  /**
   * Verdicts settled: asked again, and read by a child commit that inherits its parent's. Bounded, and pruned
   * to what can still be asked once a newer head is judged (retainOnly).
   */
  readonly #settled = new LruCache<string, ApplicationVerdict>(VERDICTS_KEPT);
  /** Environments built and validated (not inherited), for tests and the benchmark. */
  judged = 0;

  constructor(private readonly options: CommitVerdictsOptions) {
    this.#compiler = options.compiler ?? new SchemaCompiler();
    this.#scopes = new CommitScopes({
      repository: options.repository,
      environments: options.environments,
      compiler: this.#compiler,
    });
  }

  /** The applications that have a contract at a commit (repository or published), those a push is judged for. */
  async applicationsAt(commit: string): Promise<string[]> {
    const scope = await this.#scopes.scopeOf(commit);
    const published = this.options.published.applications();
    if (scope.contracts.length + scope.broken.size + published.length === 0) return [];
    return (await targetsOf(scope, published)).reduce<string[]>((apps, target) => {
      if (apps.at(-1) !== target.application) apps.push(target.application);
      return apps;
    }, []);
  }

  /** Every application the commit knows: a contract, or a configuration file of its own. */
  async knownApplications(commit: string): Promise<string[]> {
    const scope = await this.#scopes.scopeOf(commit);
    return [...new Set([...scope.known, ...this.options.published.applications()])].sort();
  }

  /** Whether any contract can guard `application` at `commit` (cheap once the commit's scope is read). */
  async guards(commit: string, application: string): Promise<boolean> {
    const scope = await this.#scopes.scopeOf(commit);
    return (
      contractsFor(application, scope.contracts).length > 0 ||
      scope.broken.has(application) ||
      scope.broken.has(EVERY_APPLICATION) ||
      this.options.published.keyOf(application) !== ''
    );
  }

  /** The application's verdict at a commit (label: what `{label}` in search paths expands to). */
  verdict(commit: string, label: string, application: string): Promise<ApplicationVerdict> {
    const key = this.#keyOf(commit, application);
    const settled = this.#settled.get(key);
    if (settled !== undefined) return Promise.resolve(settled);
    let verdict = this.#judging.get(key);
    if (verdict === undefined) {
      // A failure to read the commit at all is not a verdict: asked again, it is tried again.
      verdict = this.#judge(commit, label, application).finally(() => this.#judging.delete(key));
      this.#judging.set(key, verdict);
    }
    return verdict;
  }

  /** The application's verdict at a commit when it is settled already (the gate's walk back reads these). */
  settled(commit: string, application: string): ApplicationVerdict | undefined {
    return this.#settled.get(this.#keyOf(commit, application));
  }

  /**
   * A newer head's verdict is in: keeps what can still be asked, the head's verdicts and scope (its child
   * inherits from them) and every verdict of a held application (its walk back to the commit it is served reads
   * them); the rest is let go (asked again, worked out again). What a push leaves behind is then one commit's.
   */
  retainOnly(head: string, held: ReadonlySet<string>): void {
    this.#scopes.retainOnly(new Set([head]));
    this.#settled.deleteWhere((_, verdict) => verdict.commit !== head && !held.has(verdict.application));
  }

  /** Scopes and settled verdicts kept, for tests. */
  get kept(): { scopes: number; verdicts: number } {
    return { scopes: this.#scopes.size, verdicts: this.#settled.size };
  }

  #keyOf(commit: string, application: string): string {
    return `${commit}\u0000${application}\u0000${this.options.published.keyOf(application)}`;
  }

  async #judge(commit: string, label: string, application: string): Promise<ApplicationVerdict> {
    const scope = await this.#scopes.scopeOf(commit);
    const contracts = [
      ...contractsFor(application, scope.contracts),
      ...this.options.published.contractsOf(application),
    ];
    const brokenContract = scope.broken.get(application) ?? scope.broken.get(EVERY_APPLICATION);
    if (contracts.length === 0 && brokenContract === undefined)
      return this.#remember(pass(commit, application));
    const inherited = await this.#inherited(scope, application);
    if (inherited !== undefined) return this.#remember({ ...inherited, commit });
    const errors = brokenContract === undefined ? [] : [brokenContract];
    const violations: GateViolation[] = [];
    const targets = await targetsOf(scope, this.options.published.applications(), [application]);
    this.judged++;
    for (const target of targets) {
      try {
        const { resolved } = await this.options.environments.findAtRevision(requestOf(target), {
          commit,
          label,
          stale: false,
        });
        const found = validateEnvironment(
          { ...target, environment: resolved.environment },
          contracts,
          this.#compiler,
        );
        for (const violation of found) violations.push(this.#located(violation));
      } catch (error) {
        if (isConfbusError(error, 'CONFBUS_APPLICATION_NOT_FOUND')) continue;
        errors.push(`${target.application}/${target.profiles.join(',')}: ${messageOf(error)}`);
      }
    }
    return this.#remember({
      application,
      commit,
      passed: violations.length === 0 && errors.length === 0,
      violations: violations.length === 0 ? NONE : violations,
      errors: errors.length === 0 ? NONE : errors,
      environments: targets.length,
    });
  }

  #remember(verdict: ApplicationVerdict): ApplicationVerdict {
    this.#settled.set(this.#keyOf(verdict.commit, verdict.application), verdict);
    return verdict;
  }

  /**
   * The parent's verdict, when it is settled, judged under the same published contracts, and nothing the
   * application reads changed between the two commits (changedConcerns).
   */
  async #inherited(scope: CommitScope, application: string): Promise<ApplicationVerdict | undefined> {
    if (scope.blobIds === undefined) return undefined;
    const parent = await this.options.firstParent(scope.commit).catch(() => undefined);
    if (parent === undefined) return undefined;
    const known = this.#settled.get(this.#keyOf(parent, application));
    if (known === undefined) return undefined;
    const changed = await scope.changedSince(parent);
    if (changed === undefined) return undefined;
    for (const path of changed) if (concerns(path, application, scope.known)) return undefined;
    return known;
  }

  #located(violation: Violation): GateViolation {
    const { origin, ...rest } = violation;
    if (origin === undefined) return rest;
    const prefix = `${this.options.environments.displayUri}/`;
    const source = origin.source.startsWith(prefix) ? origin.source.slice(prefix.length) : origin.source;
    const file = source.replace(/ \(document #\d+\)$/, '');
    return { ...rest, file, ...(origin.line === undefined ? {} : { line: origin.line }) };
  }
}

function pass(commit: string, application: string): ApplicationVerdict {
  return { application, commit, passed: true, violations: NONE, errors: NONE, environments: 0 };
}

function requestOf(target: CheckTarget) {
  // Named as a client asks (label null: the default label), so the environments judged are the ones it reads.
  return environmentRequest([target.application], target.profiles, null);
}

function isConfbusError(error: unknown, code: string): boolean {
  return error instanceof ConfbusError && error.code === code;
}
