/**
 * Opens what `confbus check` reads: the repository in `--repo` (a work tree or a bare repository) at the
 * revision checked, through the server's own reader (LocalGitRepository) or the working tree's files.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type RepositoryFiles, LocalGitRepository } from '@confbus/server/offline';
import { UsageError } from '../command-line.js';
import type { CheckedState } from './check-options.js';
import { WORKING_TREE, WorkingTreeRepository } from './working-tree-repository.js';

const run = promisify(execFile);

export interface CheckedRepository {
  readonly repository: RepositoryFiles;
  /** The revision checked, as the environments are asked for it (a commit id, or the working tree). */
  readonly revision: string;
  /** The revision the change starts from, for --impact (undefined: a root commit, everything is new). */
  readonly base?: string;
  /** The paths the change touches, for --impact. */
  changedPaths(): Promise<readonly string[]>;
  close(): Promise<void>;
}

export async function openCheckedRepository(repo: string, state: CheckedState): Promise<CheckedRepository> {
  if (state.kind === 'working-tree') {
    const root = await gitOutput(repo, ['rev-parse', '--show-toplevel']);
    return {
      repository: new WorkingTreeRepository(root),
      revision: WORKING_TREE,
      changedPaths: async () => [],
      close: async () => undefined,
    };
  }
  const git = new LocalGitRepository(await gitOutput(repo, ['rev-parse', '--absolute-git-dir']), process.env);
  try {
    const revision = await git.commitOf(state.kind === 'commit' ? state.revision : state.to);
    const base =
      state.kind === 'range'
        ? await git.commitOf(state.from)
        : await git.commitOf(`${revision}^`).catch(() => undefined);
    return {
      repository: git,
      revision,
      ...(base === undefined ? {} : { base }),
      changedPaths: () => (base === undefined ? git.listFiles(revision) : git.changedPaths(base, revision)),
      close: () => git.close(),
    };
  } catch (error) {
    await git.close();
    throw error;
  }
}

async function gitOutput(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd });
    return stdout.trim();
  } catch {
    throw new UsageError(`${cwd} is not a git repository (--repo names the configuration repository)`);
  }
}
