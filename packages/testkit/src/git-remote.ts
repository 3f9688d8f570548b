// A throw-away upstream repository for tests: a bare repo in a temp dir plus a work clone that
// commits and pushes on request.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { makeTempDir } from './temp-dir.js';

const exec = promisify(execFile);

export interface CommitOptions {
  branch?: string;
  message?: string;
  /** Annotated tag to create on the new commit (and push). */
  tag?: string;
}

export interface GitRemote {
  /** file:// URL of the bare repository. */
  readonly url: string;
  /** Filesystem path of the bare repository. */
  readonly path: string;
  /** Writes (string) or deletes (null) files on `branch` (default master), commits and pushes. */
  commit(files: Record<string, string | Buffer | null>, opts?: CommitOptions): Promise<string>;
  /** Runs git in the work clone (for unusual setups in a test). */
  git(...args: string[]): Promise<string>;
  remove(): Promise<void>;
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Confbus Test',
  GIT_AUTHOR_EMAIL: 'test@confbus.invalid',
  GIT_COMMITTER_NAME: 'Confbus Test',
  GIT_COMMITTER_EMAIL: 'test@confbus.invalid',
  LANG: 'C',
};

/** Creates a bare repo `<name>.git` (default "config-repo") in a fresh temp dir, with no commits. */
export async function createGitRemote(name = 'config-repo'): Promise<GitRemote> {
  const temp = await makeTempDir('confbus-git-remote-');
  const bare = join(temp.path, `${name}.git`);
  const work = join(temp.path, 'work');
  const git = async (cwd: string, ...args: string[]) =>
    (await exec('git', args, { cwd, env: GIT_ENV, maxBuffer: 64 * 1024 * 1024 })).stdout;
  await git(temp.path, 'init', '--quiet', '--bare', '--initial-branch=master', bare);
  await git(temp.path, 'init', '--quiet', '--initial-branch=master', work);
  await git(work, 'remote', 'add', 'origin', bare);
  const branches = new Set<string>();

  return {
    url: pathToFileURL(bare).href,
    path: bare,
    git: (...args) => git(work, ...args),
    async commit(files, opts = {}) {
      const branch = opts.branch ?? 'master';
      if (branches.size === 0) await git(work, 'checkout', '--quiet', '-B', branch);
      else if (branches.has(branch)) await git(work, 'checkout', '--quiet', branch);
      else await git(work, 'checkout', '--quiet', '-b', branch);
      branches.add(branch);
      for (const [file, content] of Object.entries(files)) {
        const target = join(work, file);
        if (content === null) {
          await git(work, 'rm', '--quiet', '--', file);
        } else {
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, content);
          await git(work, 'add', '--', file);
        }
      }
      await git(
        work,
        'commit',
        '--quiet',
        '--allow-empty',
        '-m',
        opts.message ?? `update ${Object.keys(files).join(', ')}`,
      );
      const commit = (await git(work, 'rev-parse', 'HEAD')).trim();
      if (opts.tag) await git(work, 'tag', '-a', '-m', `tag ${opts.tag}`, opts.tag);
      await git(work, 'push', '--quiet', 'origin', branch, ...(opts.tag ? [`refs/tags/${opts.tag}`] : []));
      return commit;
    },
    async remove() {
      await rm(temp.path, { recursive: true, force: true });
    },
  };
}

/**
 * Commits `files` pseudo-random, incompressible files of `bytesPerFile` each (plus `application.yml`) in one
 * commit and pushes it: a repository whose clone moves about files × bytesPerFile bytes.
 */
export async function commitBulkFiles(
  remote: GitRemote,
  files: number,
  bytesPerFile: number,
): Promise<string> {
  const work = (await remote.git('rev-parse', '--show-toplevel')).trim();
  await mkdir(join(work, 'bulk'), { recursive: true });
  for (let i = 0; i < files; i++)
    await writeFile(join(work, 'bulk', `blob-${i}.bin`), randomBytes(bytesPerFile));
  await writeFile(join(work, 'application.yml'), `bulk: ${files}\n`);
  await remote.git('add', '-A');
  await remote.git('commit', '--quiet', '-m', `${files} bulk files`);
  await remote.git('push', '--quiet', 'origin', 'HEAD');
  return (await remote.git('rev-parse', 'HEAD')).trim();
}
