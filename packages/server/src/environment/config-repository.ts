/**
 * The one repository port: what every repository served can do (resolve a label, list and read files at a commit,
 * report its health, start), and what only some can, declared as capabilities the wiring asks for rather than
 * guessed from a class: `refresh` (a repository that fetches from an upstream it can be told to re-read: POST
 * /monitor, the console's watch) and `history` (commits and labels to list: the console). A Git mirror has both
 * (git/git-repository.ts), the native folders neither; the fast tier's FakeConfigRepository can refresh.
 * A database backend (JDBC, Redis) has no files: it declares `propertySources`, and the environment service
 * takes Spring's property sources from it instead of reading files (environment/source-repository.ts).
 */
import {
  ConfbusError,
  type ConsoleCommitSummary,
  type ConsoleLabel,
  coreErrors,
  type PropertySource,
} from '@confbus/core';
import type { EnvironmentRequest } from './environment-request.js';

export interface ResolvedRevision {
  /** The label actually used (the default label, after its master/main fallback, when the request named none). */
  label: string;
  /** 40-hex commit id. */
  commit: string;
  /** True when upstream could not be reached and the last fetched state is served. */
  stale: boolean;
  /**
   * Set when a served-commit policy (served-commit.ts: the contract gate) serves `commit` instead of the label's
   * head: the head held back, named by the `X-Confbus-Held-Head` header.
   */
  heldHead?: string;
}

/**
 * What environments are built from: a label's commit and the files at it. Offline readers (a commit or a working
 * tree for `confbus check`) implement only this; every repository the server serves is a ConfigRepository.
 */
export interface RepositoryFiles {
  /**
   * A label's commit. `atLeast` is a version hint (a commit a refresh event announced, from the client's
   * `X-Config-Min-Version` header): a repository that cannot take hints ignores it.
   */
  resolve(label: string | null, atLeast?: string): Promise<ResolvedRevision>;
  /**
   * Optional: the same revision when it is known at once, without an upstream check being due (so the same
   * freshness rule as resolve()); undefined when resolve() must decide. Must start nothing.
   */
  resolveNow?(label: string | null, atLeast?: string): ResolvedRevision | undefined;
  listFiles(commit: string): Promise<readonly string[]>;
  /**
   * The content of `path` at `commit`, undefined when there is no such file. With `maxBytes`, a larger file (by the
   * size the repository knows before reading it, git's object header) throws FileTooLargeError without being read.
   */
  readFile(commit: string, path: string, maxBytes?: number): Promise<Buffer | undefined>;
  /** Optional: path → content id, so a file unchanged since an earlier commit is not parsed again. */
  blobIds?(commit: string): Promise<ReadonlyMap<string, string>>;
  /** Optional: a commit's first parent (undefined for a root commit); the contract gate walks back along it. */
  firstParent?(commit: string): Promise<string | undefined>;
  /** Optional: the property-source name of a file (the native backend's `file:/abs/path`); default `<uri>/<path>`. */
  displayNameOf?(path: string): string;
  /**
   * Optional: the folder a searched directory is, when two directories can be one folder (the native backend's
   * locations may overlap: `file:./{profile}` and `file:./dev`). Directories that are one folder are searched
   * once, where the first of them stands, as Spring's LinkedHashSet of locations keeps them.
   */
  folderOf?(directory: string): string;
  /**
   * Optional: where the plain-text endpoint looks when the files are other repositories' (a composite: its
   * members' locations in order); default: this repository's search directories at the revision served.
   */
  resourceLocations?(request: EnvironmentRequest): Promise<ResourceLocation[]>;
  /** Present when the repository fetches from an upstream. */
  readonly refresh?: RepositoryRefresh;
  /**
   * Present when the repository holds property sources rather than files (JDBC, Redis): the environment's
   * sources at a revision, highest precedence first, as the backend names them. listFiles() is then empty.
   */
  readonly propertySources?: PropertySourceReader;
}

/** One directory the plain-text endpoint searches, in the repository (and at the commit) it belongs to. */
export interface ResourceLocation {
  /** '' for the root. */
  readonly directory: string;
  /** Every file of that repository at that commit. */
  readonly present: ReadonlySet<string>;
  read(path: string): Promise<Buffer | undefined>;
}

/** What a request asks a property-source backend for; `label` is the effective one (the default when none). */
export interface PropertySourceQuery {
  applications: readonly string[];
  profiles: readonly string[];
  label: string;
}

export interface PropertySourceReader {
  read(query: PropertySourceQuery, commit: string): Promise<PropertySource[]>;
  /** Optional: the environment's `version` at a commit (default: the commit; a composite of several: null). */
  version?(commit: string): string | null;
}

/**
 * A ref the server itself writes in the upstream (a Git mirror's capability, git/state-ref.ts): one file read
 * from the upstream and replaced by compare-and-swap, so replicas share it and a restart finds it.
 */
export interface StateRef {
  /** The ref's content and commit as the upstream has it now; undefined when there is no such ref yet. */
  read(): Promise<{ readonly commit: string; readonly content: Buffer } | undefined>;
  /** A new commit holding `content`, pushed only if the ref is still at `expected`; rejects otherwise. */
  write(content: Buffer, expected: string | undefined, message: string): Promise<string>;
}

/** A repository the server serves: its files, its health and start, and what else it can do. */
export interface ConfigRepository extends RepositoryFiles {
  /** For /actuator/health and the metrics. */
  health(): RepositoryHealth;
  /** Checks what is on disk before anything is served (a Git mirror's basedir); a wrong one throws. */
  open?(): Promise<void>;
  /** Clones (or first reads); safe to call twice. */
  start(): Promise<void>;
  /** Present when the repository has commits and labels to list. */
  readonly history?: RepositoryHistory;
  /** Present when the server can write refs of its own upstream (a Git mirror): the rollouts' store. */
  stateRef?(ref: string): StateRef;
  /** Present when the repository serves several backends (a composite): each member's health, in order. */
  memberHealth?(): { name: string; health: RepositoryHealth }[];
}

/** A file over the `maxBytes` of a readFile(): refused by its announced size, before any of it was read. */
export class FileTooLargeError extends ConfbusError {
  override readonly name = 'FileTooLargeError';
  constructor(
    readonly path: string,
    readonly bytes: number,
  ) {
    super(coreErrors.CONFBUS_CONFIG_LIMIT, `${path} is ${bytes} bytes`);
  }
}

/** A repository's upstream: re-read on a webhook, watched by the console. */
export interface RepositoryRefresh {
  /** Fetches from upstream now; `stale` when upstream could not be reached. */
  refreshNow(): Promise<{ readonly stale: boolean }>;
  /**
   * The label's revision in the state fetched last, with no upstream check: what a webhook announces, and what
   * requests that ask for it get (EnvironmentRequest.lastFetched).
   */
  resolveFetched(label: string | null): Promise<ResolvedRevision>;
  /** Calls `listener` after each upstream check (`changed`: the refs moved), and when upstream goes or comes back. */
  onChecked(listener: (changed: boolean) => void): void;
}

/** A repository's commits and labels (the console's lists; git/git-history.ts reads a mirror's). */
export interface RepositoryHistory {
  labels(): Promise<ConsoleLabel[]>;
  commit(commit: string): Promise<ConsoleCommitSummary>;
  /** The commits that touched some files, newest first. */
  log(query: LogQuery): Promise<CommitPage>;
  /** The labels moved (a fetch changed refs): the cached list is read again. */
  refsChanged(): void;
}

export interface CommitPage {
  commits: ConsoleCommitSummary[];
  /** True when older commits follow. */
  more: boolean;
}

export interface LogQuery {
  /** 40-hex id to walk back from. */
  commit: string;
  /** Repository-relative files; the log lists only commits that touched one of them. */
  paths: readonly string[];
  offset: number;
  limit: number;
}

/** For /actuator/health and the metrics. */
export interface RepositoryHealth {
  /** Credentials stripped. */
  uri: string;
  /**
   * A state can be served: the first clone has finished, or a previous run's mirror was reused. Until then
   * every request waits for (or fails with) the first clone, so readiness is DOWN.
   */
  available: boolean;
  lastCheckAt?: Date;
  lastSuccessAt?: Date;
  lastError?: string;
  stale: boolean;
  staleSince?: Date;
  /** Upstream checks started (ls-remote). */
  checks: number;
  /** Fetches performed because refs differed. */
  fetches: number;
}
