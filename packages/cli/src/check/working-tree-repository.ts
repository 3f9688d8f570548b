/**
 * A repository's working tree as a RepositoryFiles, for `confbus check` without --commit: the files git would
 * commit (tracked and untracked, `.gitignore` respected, as `git ls-files` lists them), read from disk. Its one
 * "commit" is the working tree as it is now.
 */
import { execFile } from 'node:child_process';
import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RepositoryFiles, ResolvedRevision } from '@confbus/server/offline';

const run = promisify(execFile);
export const WORKING_TREE = 'working-tree';

export class WorkingTreeRepository implements RepositoryFiles {
  private listing: Promise<{ paths: readonly string[]; set: ReadonlySet<string> }> | undefined;

  /** `root`: the work tree's top directory. */
  constructor(private readonly root: string) {}

  async resolve(): Promise<ResolvedRevision> {
    return { label: WORKING_TREE, commit: WORKING_TREE, stale: false };
  }

  /** The same list each time (the environment builder keeps what it derives from a list by its identity). */
  async listFiles(): Promise<readonly string[]> {
    return (await this.listed()).paths;
  }

  /**
   * A listed file's bytes; undefined for one listed but deleted, or a path git would not list. A symbolic link
   * reads as git stores it, its target's name, as the server would read it from a commit: never the file it
   * points at, which may be outside the repository.
   */
  async readFile(_commit: string, path: string): Promise<Buffer | undefined> {
    if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
    if (!(await this.listed()).set.has(path)) return undefined;
    const full = join(this.root, path);
    const info = await lstat(full).catch(() => undefined);
    if (info?.isSymbolicLink()) return Buffer.from(await readlink(full));
    return info?.isFile() ? readFile(full).catch(() => undefined) : undefined;
  }

  private listed(): Promise<{ paths: readonly string[]; set: ReadonlySet<string> }> {
    this.listing ??= run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: this.root,
      maxBuffer: 256 * 1024 * 1024,
    }).then(({ stdout }) => {
      const set = new Set(stdout.split('\0').filter((path) => path !== ''));
      return { paths: Object.freeze([...set]), set };
    });
    return this.listing;
  }
}
