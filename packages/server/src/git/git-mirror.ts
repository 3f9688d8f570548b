// A local bare mirror of the configuration repository, kept fresh without paying a fetch per request.
//
// The parts, each in its own module:
//   upstream-sync.ts        one check: list the upstream's refs, fetch only when they differ (the clone included)
//   upstream-checks.ts      when to check (refresh-rate, coalescing), outages, health
//   version-hint-checks.ts  a hinted request (the commit a refresh event announced) skips or shares a check
//   label-resolver.ts       label -> commit in the fetched state (branches, tags, commit ids, main -> master)
//   commit-files.ts         the files of a commit
//   mirror-startup.ts       basedir prepared or adopted, the mirror made there, the first clone
import { GitStateRef } from './state-ref.js';
import { EventEmitter } from 'node:events';
import { resolve as resolvePath } from 'node:path';
import type { ResolvedRevision } from '../environment/config-repository.js';
import { CatFileBatch } from './cat-file-batch.js';
import { CommitFiles } from './commit-files.js';
import { requireValidLabel } from './label.js';
import { LabelResolver } from './label-resolver.js';
import { LocalRefs } from './local-refs.js';
import { MirrorGit } from './mirror-git.js';
import type { FetchOutcome, GitMirrorEvents, GitMirrorOptions, MirrorHealth } from './mirror-types.js';
import { MirrorStartup } from './mirror-startup.js';
import { Upstream } from './upstream.js';
import { UpstreamChecks } from './upstream-checks.js';
import { UpstreamSync } from './upstream-sync.js';
import { VersionHintChecks } from './version-hint-checks.js';

// The mirror implements the environment service's repository port; the revision type is the port's.
export type { ResolvedRevision };
export type { FetchOutcome, GitMirrorEvents, GitMirrorOptions, MirrorHealth };

const MAX_VALID_LABELS = 1000;

export class GitMirror extends EventEmitter<GitMirrorEvents> {
  private readonly safeUri: string;
  private readonly basedir: string;
  private readonly upstream: Upstream;
  private readonly git: MirrorGit;
  private readonly refs: LocalRefs;
  private readonly reader: CatFileBatch;
  private readonly sync: UpstreamSync;
  private readonly checks: UpstreamChecks;
  private readonly labels: LabelResolver;
  private readonly hints: VersionHintChecks;
  private readonly files: CommitFiles;
  private readonly startup: MirrorStartup;
  /** Labels already validated (see requestedLabel). */
  private readonly validLabels = new Set<string>();

  constructor(private readonly options: GitMirrorOptions) {
    super();
    this.upstream = new Upstream({
      uri: options.uri,
      username: options.username,
      password: options.password,
      ssh: options.ssh,
      skipSslValidation: options.skipSslValidation,
      proxy: options.proxy,
      timeoutSeconds: options.timeoutSeconds,
      ...(options.timeoutSetting === undefined ? {} : { timeoutSetting: options.timeoutSetting }),
      progressLogIntervalMs: options.progressLogIntervalMs ?? 4000,
      logger: options.logger,
    });
    const upstream = this.upstream;
    this.safeUri = upstream.safeUri;
    this.basedir = resolvePath(options.basedir);
    this.git = new MirrorGit(this.basedir, upstream.secrets);
    this.reader = new CatFileBatch(this.basedir);
    this.refs = new LocalRefs(this.git, this.reader);
    this.sync = new UpstreamSync({
      upstream,
      git: this.git,
      refs: this.refs,
      deleteUntrackedBranches: options.deleteUntrackedBranches ?? false,
      gcAutoPackLimit: options.gcAutoPackLimit ?? 50,
      logger: options.logger,
    });
    this.checks = new UpstreamChecks({
      sync: this.sync,
      refreshRateSeconds: options.refreshRateSeconds,
      outageRetryMs: options.outageRetryMs ?? { min: 1000, max: 30_000 },
      safeUri: this.safeUri,
      secrets: upstream.secrets,
      hasFetched: () => this.refs.fetched,
      refCount: () => this.refs.count,
      closed: () => this.git.closed,
      events: this,
      logger: options.logger,
    });
    this.labels = new LabelResolver(this.refs, this.reader, options.tryMasterBranch !== false);
    this.hints = new VersionHintChecks(this.labels, this.checks, {
      intervalMs: options.hintCheckIntervalMs ?? 1000,
    });
    this.files = new CommitFiles(this.git, this.reader);
    this.startup = new MirrorStartup({
      basedir: this.basedir,
      safeUri: this.safeUri,
      git: this.git,
      upstream,
      refs: this.refs,
      checks: this.checks,
      files: this.files,
      ownFiles: options.ownFiles,
      logger: options.logger,
    });
  }

  /** The mirror's bare repository (absolute), for history queries. */
  get gitDir(): string {
    return this.basedir;
  }

  /**
   * Prepares basedir without touching the network: an empty one is kept for start() to make the mirror in, a
   * repository of the same remote is adopted (its fetched refs are served at once). Throws CONFBUS_GIT_BASEDIR
   * when basedir holds anything else, so the server refuses to start instead of failing every request. Safe to
   * call twice.
   */
  open(): Promise<void> {
    return this.startup.open();
  }

  /**
   * Opens basedir (see open()), makes the mirror there if it is new and checks upstream once: the first clone.
   * Safe to call twice.
   */
  start(): Promise<void> {
    return this.startup.start();
  }

  /**
   * Resolves a label (null = default) to a commit, checking upstream as refresh-rate demands, or, with a
   * version hint (`atLeast`: a commit a refresh event announced), as the hint demands (version-hint-checks.ts).
   * Every cached answer passes through here, so when no check is due it answers without an extra turn.
   */
  resolve(label: string | null, atLeast?: string): Promise<ResolvedRevision> {
    let requested: string;
    try {
      requested = this.requestedLabel(label);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.refs.fetched) {
      // The first clone may have been started before this request (at boot) and have listed the upstream's refs
      // before a push this request must see: then the request asks again, as refresh-rate says.
      const arrivedAt = performance.now();
      return this.start().then(() =>
        this.checks.freshSince(arrivedAt) ? this.revisionOf(requested) : this.resolve(label, atLeast),
      );
    }
    const wait =
      atLeast === undefined ? this.checks.freshen() : this.hints.freshenFor(requested, atLeast.toLowerCase());
    return wait === undefined ? this.revisionOf(requested) : wait.then(() => this.revisionOf(requested));
  }

  /**
   * The label's revision when it can be answered from memory at once: no upstream check due (refresh-rate, or the
   * version hint already at the label's head) and the label a branch or tag. Otherwise undefined: resolve() then
   * decides. Starts nothing; lets a cached answer be written without a promise turn (the repeat-request fast path).
   */
  resolveNow(label: string | null, atLeast?: string): ResolvedRevision | undefined {
    if (!this.refs.fetched) return undefined;
    let requested: string;
    try {
      requested = this.requestedLabel(label);
    } catch {
      return undefined;
    }
    const due =
      atLeast === undefined ? this.checks.due() : !this.hints.satisfied(requested, atLeast.toLowerCase());
    if (due) return undefined;
    // As revisionOf answers a branch or tag, with try-master-branch's 'main' → 'master'.
    const head = this.labels.headLabel(requested);
    const commit = this.labels.headOf(head);
    return commit === undefined ? undefined : { label: head, commit, stale: this.checks.stale };
  }

  /**
   * The commit of a label in the state fetched last, with no upstream check: for callers that have just
   * forced one (the webhook after refreshNow()).
   */
  async resolveFetched(label: string | null): Promise<ResolvedRevision> {
    const requested = this.requestedLabel(label);
    if (!this.refs.fetched) await this.start();
    return this.revisionOf(requested);
  }

  /** Forced upstream check (e.g. from a webhook); coalesced with concurrent checks like resolve(). */
  async refreshNow(): Promise<FetchOutcome> {
    if (!this.refs.fetched) {
      const arrivedAt = performance.now();
      await this.start();
      // As resolve(): a clone that listed the refs before this call may have missed the push it announces.
      if (!this.checks.freshSince(arrivedAt)) await this.checks.requestFresh();
      return { changed: true, refs: this.refs.count, stale: this.checks.stale };
    }
    return this.checks.requestFresh();
  }

  /** A ref of the server's own in the upstream (git/state-ref.ts): the rollouts' shared, durable state. */
  stateRef(ref: string): GitStateRef {
    return new GitStateRef(this.git, this.upstream, ref, () => this.startup.made());
  }

  /** All blob paths at `commit` (a 40-hex id from resolve()), cached per commit. */
  listFiles(commit: string): Promise<readonly string[]> {
    return this.files.listFiles(commit);
  }

  /** Path → blob id at `commit`: files unchanged between two commits keep their id (and parsed form). */
  blobIds(commit: string): Promise<ReadonlyMap<string, string>> {
    return this.files.blobIds(commit);
  }

  /** Content of `path` at `commit`, or undefined when there is no such file (see ConfigRepository.readFile). */
  readFile(commit: string, path: string, maxBytes?: number): Promise<Buffer | undefined> {
    return this.files.readFile(commit, path, maxBytes);
  }

  health(): MirrorHealth {
    const checks = this.checks;
    return {
      uri: this.safeUri,
      available: this.refs.fetched,
      lastCheckAt: checks.lastCheckAt,
      lastSuccessAt: checks.lastSuccessAt,
      lastError: checks.lastError,
      stale: checks.stale,
      staleSince: checks.staleSince,
      checks: checks.checks,
      fetches: this.sync.fetches,
    };
  }

  /** Ends the cat-file process, kills any running git and cancels maintenance not yet started. */
  async close(): Promise<void> {
    this.sync.close();
    this.git.close();
    this.checks.close();
    this.hints.close();
    await this.reader.close();
  }

  /** The label asked for, validated (the route validated it already; the console and webhook did not). */
  private requestedLabel(label: string | null): string {
    const requested = label === null || label === '' ? this.options.defaultLabel : label;
    if (!this.validLabels.has(requested)) {
      requireValidLabel(requested);
      // Bounded: labels come from requests. Clearing only costs the next requests a validation each.
      if (this.validLabels.size >= MAX_VALID_LABELS) this.validLabels.clear();
      this.validLabels.add(requested);
    }
    return requested;
  }

  /** A branch or tag (the common case) is answered from memory; anything else goes through the resolver. */
  private revisionOf(requested: string): Promise<ResolvedRevision> {
    const stale = this.checks.stale;
    const head = this.labels.headOf(requested);
    if (head !== undefined) return Promise.resolve({ label: requested, commit: head, stale });
    return this.labels.revisionOf(requested, stale);
  }
}
