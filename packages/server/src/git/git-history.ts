/**
 * History queries on the local mirror for the console: branches and tags, one commit's summary, and the
 * commits that touched a set of files. Read-only, through the safe git runner (no shell, `--end-of-options`
 * before every revision, literal pathspecs so a file name is never a glob). Results are cached by commit
 * id: a commit's history never changes, so an entry never goes stale. Commits and labels come in the shapes the
 * console API answers with (core's ConsoleCommitSummary and ConsoleLabel).
 */
import { ConfbusError, type ConsoleCommitSummary, type ConsoleLabel } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { LruCache } from '../support/lru-cache.js';
import { serverErrors } from '../errors.js';
import { runGit } from './git-process.js';
import type { CommitPage, LogQuery } from '../environment/config-repository.js';

export type { CommitPage, LogQuery };

/** More paths than this would make one command line unwieldy; the console shows this many files' history. */
export const MAX_LOG_PATHS = 500;
/** Local reads of a large repository stay well under this; it only stops a wedged git from piling up. */
const LOCAL_TIMEOUT_MS = 30_000;
const FULL_COMMIT = /^[0-9a-f]{40}$/;
// Fields separated by US (0x1f), records by NUL (-z): neither can appear in a subject line or a name.
const FORMAT = '--format=%H%x1f%P%x1f%an%x1f%aI%x1f%s';

export class GitHistory {
  private readonly logs = new LruCache<string, CommitPage>(512);
  private readonly commits = new LruCache<string, ConsoleCommitSummary>(4096);
  private labelList: Promise<ConsoleLabel[]> | undefined;

  /** `gitDir`: the mirror's bare repository. */
  constructor(private readonly gitDir: string) {}

  /**
   * Branches, then tags, each sorted by name; tags peeled to their commit. Kept until `refsChanged()` (the
   * owner calls it after a fetch that moved refs), so listing labels costs no process on the warm path.
   */
  labels(): Promise<ConsoleLabel[]> {
    if (!this.labelList) {
      const pending = this.readLabels();
      pending.catch(() => {
        if (this.labelList === pending) this.labelList = undefined;
      });
      this.labelList = pending;
    }
    return this.labelList;
  }

  /** Forgets the cached label list: the mirror's branches or tags moved. */
  refsChanged(): void {
    this.labelList = undefined;
  }

  private async readLabels(): Promise<ConsoleLabel[]> {
    const { stdout } = await this.git([
      'for-each-ref',
      '--format=%(refname)%1f%(objecttype)%1f%(objectname)%1f%(*objectname)',
      '--sort=refname',
      'refs/heads',
      'refs/tags',
    ]);
    const branches: ConsoleLabel[] = [];
    const tags: ConsoleLabel[] = [];
    for (const line of stdout.toString('utf8').split('\n')) {
      const [ref = '', type, oid = '', peeled = ''] = line.split('\x1f');
      if (ref.startsWith('refs/heads/') && type === 'commit')
        branches.push({ name: ref.slice(11), kind: 'branch', commit: oid });
      else if (ref.startsWith('refs/tags/') && (type === 'commit' || peeled !== ''))
        tags.push({ name: ref.slice(10), kind: 'tag', commit: type === 'commit' ? oid : peeled });
    }
    return [...branches, ...tags];
  }

  /** One commit's summary. */
  async commit(commit: string): Promise<ConsoleCommitSummary> {
    assertCommitId(commit);
    const cached = this.commits.get(commit);
    if (cached) return cached;
    const { stdout } = await this.git(['log', '-z', '-1', FORMAT, '--end-of-options', commit]);
    const [summary] = parseLog(stdout.toString('utf8'));
    if (!summary) throw new ConfbusError(serverErrors.CONFBUS_GIT_HISTORY, `No commit ${commit}`);
    this.commits.set(commit, summary);
    return summary;
  }

  /** The commits reachable from `commit` that touched one of `paths`, newest first, one page. */
  async log(query: LogQuery): Promise<CommitPage> {
    assertCommitId(query.commit);
    const paths = query.paths.slice(0, MAX_LOG_PATHS);
    if (paths.length === 0) return { commits: [], more: false };
    const key = [query.commit, query.offset, query.limit, ...paths].join('\0');
    const cached = this.logs.get(key);
    if (cached) return cached;
    const { stdout } = await this.git([
      'log',
      '-z',
      FORMAT,
      `--skip=${query.offset}`,
      `--max-count=${query.limit + 1}`,
      '--end-of-options',
      query.commit,
      '--',
      ...paths,
    ]);
    const commits = parseLog(stdout.toString('utf8'));
    const page = { commits: commits.slice(0, query.limit), more: commits.length > query.limit };
    for (const summary of page.commits) this.commits.set(summary.commit, summary);
    this.logs.set(key, page);
    return page;
  }

  private async git(args: readonly string[]): Promise<{ stdout: Buffer }> {
    try {
      return await runGit(args, {
        cwd: this.gitDir,
        timeoutMs: LOCAL_TIMEOUT_MS,
        // Paths are file names from the repository, never patterns.
        env: { GIT_LITERAL_PATHSPECS: '1' },
        what: `git ${args[0] ?? ''}`,
      });
    } catch (error) {
      throw new ConfbusError(
        serverErrors.CONFBUS_GIT_HISTORY,
        `Reading the repository history failed: ${messageOf(error)}`,
        { cause: error },
      );
    }
  }
}

function parseLog(output: string): ConsoleCommitSummary[] {
  const out: ConsoleCommitSummary[] = [];
  for (const record of output.split('\0')) {
    const [commit = '', parents = '', author = '', time = '', message = ''] = record
      .replace(/^\n/, '')
      .split('\x1f');
    if (!FULL_COMMIT.test(commit)) continue;
    out.push({ commit, parents: parents === '' ? [] : parents.split(' '), author, time, message });
  }
  return out;
}

function assertCommitId(commit: string): void {
  if (!FULL_COMMIT.test(commit))
    throw new TypeError(`Expected a 40-hex commit id, got ${JSON.stringify(commit)}`);
}
