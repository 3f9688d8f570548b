// One synchronisation with the upstream: list its refs, fetch only when they differ from the mirror's, and
// keep the mirror tidy (deleted branches, `git gc --auto`). The clone is simply the first such fetch.
//
// Listing first: measured on this machine (git 2.39, 61 refs, 50 runs each, nothing changed upstream):
//   file://  ls-remote 5.6 ms vs no-op fetch 12.8 ms;   git:// (daemon)  ls-remote 49 ms vs fetch 58 ms.
// Listing is cheaper on every transport and the common case (nothing changed) needs nothing more.
import type { Logger } from '@confbus/core';
import type { LocalRefs } from './local-refs.js';
import type { MirrorGit } from './mirror-git.js';
import { hasAllRefs, sameRefs } from './refs.js';
import type { Upstream } from './upstream.js';

export interface UpstreamSyncOptions {
  upstream: Upstream;
  git: MirrorGit;
  refs: LocalRefs;
  deleteUntrackedBranches: boolean;
  /** See GitMirrorOptions.gcAutoPackLimit. */
  gcAutoPackLimit: number;
  logger: Logger;
}

/**
 * How long after a fetch `git gc --auto` runs: off the path of the webhook and of the fleet's re-fetches that
 * follow it (its process start alone took ~3 ms of the webhook's ~30 ms), and once for a burst of fetches.
 */
const MAINTENANCE_DELAY_MS = 2000;

export class UpstreamSync {
  /** Fetches performed because refs differed (the clone included). */
  fetches = 0;
  private readonly safeUri: string;
  private maintenanceTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: UpstreamSyncOptions) {
    this.safeUri = options.upstream.safeUri;
  }

  /** Brings the mirror level with the upstream; says whether its refs moved. Throws when the upstream fails. */
  async sync(): Promise<{ changed: boolean; refs: number }> {
    const { upstream, git, refs } = this.options;
    const remote = await upstream.listRefs(git.run, git.signal);
    const before = refs.raw;
    // Refs only we have (deleted upstream) do not call for a fetch: they stay unless deleted below.
    if (!refs.fetched || !hasAllRefs(before, remote)) await this.fetch(remote);
    if (this.options.deleteUntrackedBranches) await this.deleteUntrackedBranches(remote);
    return { changed: !sameRefs(before, refs.raw), refs: refs.count };
  }

  private async fetch(listed: ReadonlyMap<string, string>): Promise<void> {
    const { upstream, git, refs, logger } = this.options;
    const fetchStarted = performance.now();
    const cloning = !refs.fetched;
    // The first fetch of a large repository can take a while: say what is happening.
    if (cloning)
      logger.info({ uri: this.safeUri, basedir: git.gitDir }, 'Cloning the configuration repository');
    await upstream.fetchAll(
      git.run,
      cloning ? 'Cloning the configuration repository' : 'Fetching from the Git upstream',
    );
    this.fetches++;
    this.maintainSoon();
    const after = cloning ? await refs.load() : await refs.applyFetched(listed);
    logger.info(
      { uri: this.safeUri, refs: after.raw.size, ms: Math.round(performance.now() - fetchStarted) },
      cloning ? 'Cloned the configuration repository' : 'Fetched new commits from the Git upstream',
    );
    if (cloning) {
      await git.run(['config', 'confbus.fetched', 'true']);
      refs.fetched = true;
    }
  }

  /**
   * delete-untracked-branches: branches deleted upstream leave the mirror too. Without it they keep being
   * served, as in Spring (whose local branches outlive their remote-tracking ones). Tags are never deleted.
   */
  private async deleteUntrackedBranches(remote: ReadonlyMap<string, string>): Promise<void> {
    const { git, refs, logger } = this.options;
    const branches = refs.snapshot?.branches.keys() ?? [];
    const untracked = [...branches].filter((b) => !remote.has(`refs/heads/${b}`));
    if (untracked.length === 0) return;
    for (const branch of untracked) await git.run(['update-ref', '-d', '--', `refs/heads/${branch}`]);
    await refs.load();
    logger.info({ uri: this.safeUri, branches: untracked }, 'Deleted branches that were deleted upstream');
  }

  /** Cancels maintenance not yet started (the mirror is closing). */
  close(): void {
    clearTimeout(this.maintenanceTimer);
    this.maintenanceTimer = undefined;
  }

  /** Schedules maintenance after a fetch, unless it is already scheduled. */
  private maintainSoon(): void {
    if (this.maintenanceTimer !== undefined) return;
    this.maintenanceTimer = setTimeout(() => {
      this.maintenanceTimer = undefined;
      this.maintain();
    }, MAINTENANCE_DELAY_MS);
    this.maintenanceTimer.unref();
  }

  /**
   * `git gc --auto`: nearly free below the thresholds; above them git repacks in a detached process. Safe beside
   * the long-lived cat-file reader: on Linux a replaced pack stays readable through its open mapping, and
   * cat-file re-scans the pack directory when an object is not found.
   */
  private maintain(): void {
    const packLimit = String(this.options.gcAutoPackLimit);
    this.options.git
      .run([
        '-c',
        'gc.auto=6700',
        '-c',
        `gc.autoPackLimit=${packLimit}`,
        '-c',
        'gc.autoDetach=true',
        'gc',
        '--auto',
        '--quiet',
      ])
      .catch((error: unknown) =>
        this.options.logger.debug(
          { err: String(error) },
          'git gc --auto failed; will try after the next fetch',
        ),
      );
  }
}
