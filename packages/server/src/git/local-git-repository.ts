/**
 * A repository on this machine read in place, without a mirror: for `confbus check`, which runs where the
 * configuration is (a CI checkout, a bare repository's pre-receive hook) before any server has seen the commit.
 * Files come through the same CommitFiles and cat-file reader as the server's mirror reads them.
 */
import type { RepositoryFiles, ResolvedRevision } from '../environment/config-repository.js';
import { CatFileBatch } from './cat-file-batch.js';
import { CommitFiles } from './commit-files.js';
import { LabelNotFoundError } from './errors.js';
import { MirrorGit } from './mirror-git.js';

export class LocalGitRepository implements RepositoryFiles {
  private readonly git: MirrorGit;
  private readonly reader: CatFileBatch;
  private readonly files: CommitFiles;
  /**
   * Revisions resolved, each once: a check judges one state of the repository, and a process per environment
   * asked for (1,500 for 500 applications) cost seconds.
   */
  private readonly resolved = new Map<string, Promise<string>>();

  /**
   * `gitDir`: the repository's git directory (`.git` of a work tree, or a bare repository), absolute. `env`: the
   * process environment, from which a pre-receive hook's object quarantine is taken: the pushed commits are only
   * readable through it until the push is accepted.
   */
  constructor(
    readonly gitDir: string,
    env: NodeJS.ProcessEnv = {},
  ) {
    const quarantine = quarantineEnv(env);
    this.git = new MirrorGit(gitDir, [], quarantine);
    this.reader = new CatFileBatch(gitDir, quarantine);
    this.files = new CommitFiles(this.git, this.reader);
  }

  /** The commit a revision names (`HEAD`, a branch, `main~2`, an id); LabelNotFoundError when none. */
  commitOf(revision: string): Promise<string> {
    let commit = this.resolved.get(revision);
    if (commit === undefined) {
      commit = this.revParse(revision);
      this.resolved.set(revision, commit);
    }
    return commit;
  }

  private async revParse(revision: string): Promise<string> {
    const result = await this.git
      .run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`])
      .catch(() => undefined);
    const commit = result?.stdout.toString('utf8').trim();
    if (!commit) throw new LabelNotFoundError(revision);
    return commit;
  }

  /** The paths that differ between two commits (renames as a deletion and an addition). */
  async changedPaths(from: string, to: string): Promise<string[]> {
    const { stdout } = await this.git.run(['diff', '--name-only', '--no-renames', '-z', from, to, '--']);
    return stdout
      .toString('utf8')
      .split('\0')
      .filter((path) => path !== '');
  }

  async resolve(label: string | null): Promise<ResolvedRevision> {
    const name = label ?? 'HEAD';
    return { label: name, commit: await this.commitOf(name), stale: false };
  }

  listFiles(commit: string): Promise<readonly string[]> {
    return this.files.listFiles(commit);
  }

  readFile(commit: string, path: string): Promise<Buffer | undefined> {
    return this.files.readFile(commit, path);
  }

  blobIds(commit: string): Promise<ReadonlyMap<string, string>> {
    return this.files.blobIds(commit);
  }

  async close(): Promise<void> {
    this.git.close();
    await this.reader.close();
  }
}

/** The variables git sets for a pre-receive hook to see the objects of the push it is judging. */
const QUARANTINE_VARIABLES = [
  'GIT_QUARANTINE_PATH',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
];

function quarantineEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of QUARANTINE_VARIABLES) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}
