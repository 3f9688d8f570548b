import { ConfbusError, coreErrors } from '@confbus/core';
/** What the environment service needs from a repository; GitMirror implements it, tests may fake it. */
export interface ResolvedRevision {
  /** The label actually used (the default label, after its master/main fallback, when the request named none). */
  label: string;
  /** 40-hex commit id. */
  commit: string;
  /** True when upstream could not be reached and the last fetched state is served. */
  stale: boolean;
}

export interface ConfigRepository {
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
  /**
   * Optional: the label's revision in the state fetched last, with no upstream check (a Git mirror); for
   * requests that ask for it (EnvironmentRequest.lastFetched). Without it such requests use resolve().
   */
  resolveFetched?(label: string | null): Promise<ResolvedRevision>;
  listFiles(commit: string): Promise<readonly string[]>;
  /**
   * The content of `path` at `commit`, undefined when there is no such file. With `maxBytes`, a larger file (by the
   * size the repository knows before reading it, git's object header) throws FileTooLargeError without being read.
   */
  readFile(commit: string, path: string, maxBytes?: number): Promise<Buffer | undefined>;
  /** Optional: path → content id, so a file unchanged since an earlier commit is not parsed again. */
  blobIds?(commit: string): Promise<ReadonlyMap<string, string>>;
  /** Optional: the property-source name of a file (the native backend's `file:/abs/path`); default `<uri>/<path>`. */
  displayNameOf?(path: string): string;
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
