// How a mirror comes to be: basedir prepared (an empty one kept, a mirror of the same remote adopted), the bare
// mirror made there, and the first clone, undone when it fails so a retry never meets a half-made mirror. Apart
// from git-mirror.ts because this runs once per mirror (or until it succeeds), while the facade serves requests.
import type { Logger } from '@confbus/core';
import { type BasedirState, createMirror, discardFailedMirror, prepareBasedir } from './basedir.js';
import type { CommitFiles } from './commit-files.js';
import { RepositoryUnavailableError } from './errors.js';
import type { LocalRefs } from './local-refs.js';
import type { MirrorGit } from './mirror-git.js';
import type { GitMirrorOptions } from './mirror-types.js';
import type { Upstream } from './upstream.js';
import type { UpstreamChecks } from './upstream-checks.js';

export interface MirrorStartupParts {
  readonly basedir: string;
  readonly safeUri: string;
  readonly git: MirrorGit;
  readonly upstream: Upstream;
  readonly refs: LocalRefs;
  readonly checks: UpstreamChecks;
  readonly files: CommitFiles;
  readonly ownFiles: GitMirrorOptions['ownFiles'];
  readonly logger: Logger;
}

/** open(), made() and start() of one GitMirror, each safe to call twice and tried again after a failure. */
export class MirrorStartup {
  private startPromise: Promise<void> | undefined;
  private openPromise: Promise<void> | undefined;
  private madePromise: Promise<void> | undefined;
  /** What open() found in basedir; `empty`: the first start() creates the bare mirror there. */
  private basedirState: BasedirState | undefined;

  constructor(private readonly parts: MirrorStartupParts) {}

  /** See GitMirror.open(). */
  open(): Promise<void> {
    if (this.parts.git.closed) return Promise.reject(new Error('GitMirror is closed'));
    this.openPromise ??= this.doOpen();
    return this.openPromise;
  }

  private async doOpen(): Promise<void> {
    const { basedir, safeUri, git, logger } = this.parts;
    const state = await prepareBasedir(basedir, safeUri, git.run);
    this.basedirState = state;
    // The server's own settings file in the upstream's work tree is served from no commit.
    const { ownFiles } = this.parts;
    if (ownFiles !== undefined && ownFiles.paths.length > 0) {
      const { trees, error } = await this.parts.upstream.workTrees(git.run);
      if (error !== undefined)
        logger.warn(
          { uri: safeUri, err: error },
          "Could not tell whether the upstream's work tree holds the server's own files: hiding them as if it did",
        );
      this.parts.files.hide(trees.flatMap((tree) => ownFiles.inside(tree)));
    }
    if (state.adopted) logger.info({ uri: safeUri, basedir }, 'Adopted the Git repository in basedir');
    if (state.fetched) {
      await this.parts.refs.load();
      this.parts.refs.fetched = true;
      logger.info({ uri: safeUri, basedir }, 'Reusing existing Git mirror');
    }
  }

  /** See GitMirror.start(). */
  start(): Promise<void> {
    if (this.parts.git.closed) return Promise.reject(new Error('GitMirror is closed'));
    this.startPromise ??= this.doStart().catch((error: unknown) => {
      // Allow a later call (e.g. the next request) to retry once the upstream is back.
      this.startPromise = undefined;
      throw error;
    });
    return this.startPromise;
  }

  /**
   * Opens basedir and makes the mirror there if it is new (an empty repository with the remote), without the first
   * fetch: what the server's own state ref (stateRef) needs, which is read while the first clone runs.
   */
  made(): Promise<void> {
    this.madePromise ??= this.open()
      .then(async () => {
        if (this.basedirState?.empty)
          await createMirror(this.parts.basedir, this.parts.safeUri, this.parts.git.run);
      })
      .catch((error: unknown) => {
        this.madePromise = undefined; // tried again by the next caller
        throw error;
      });
    return this.madePromise;
  }

  private async doStart(): Promise<void> {
    const { basedir, safeUri, refs, checks, logger } = this.parts;
    await this.open();
    const state = this.basedirState;
    try {
      await this.made();
      await checks.requestFresh();
      if (!refs.fetched) {
        const lastError = checks.lastError;
        throw new RepositoryUnavailableError(safeUri, lastError ? new Error(lastError) : undefined);
      }
    } catch (error) {
      // A first clone that failed leaves nothing in basedir (as Spring deletes it), and the next start() prepares
      // it again: a retry, or another mirror of the same uri, never finds a half-made mirror in its way.
      if (state?.empty && !refs.fetched) {
        await discardFailedMirror(basedir, state).catch((discardError: unknown) =>
          logger.warn({ basedir, err: discardError }, 'Could not remove a failed clone'),
        );
        this.openPromise = undefined;
        this.madePromise = undefined;
      }
      throw error;
    }
    if (state) state.empty = false;
  }
}
