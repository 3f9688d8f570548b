// A local upstream (a path or file:// uri) and the work tree of its files, if it has one: where the files of its
// commits also lie on disk, so where the server's own settings file could be one of them
// (../settings/server-own-files.ts). Found by git, not by reading the upstream's files here: a hung mount must
// cost a git process killed at the upstream deadline, never a file-system thread of the server
// (upstream-deadline.ts).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitCommandError } from './errors.js';
import type { GitResult } from './git-process.js';

/** The local repository path a uri names, or undefined when it is not a local one (or not an absolute path). */
export function localUpstreamPath(uri: string): string | undefined {
  if (/^file:\/\//i.test(uri)) {
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  }
  return uri.startsWith('/') ? uri : undefined;
}

/** Runs git under the upstream deadline with extra environment (Upstream.network). */
export type UpstreamGit = (args: readonly string[], env: Record<string, string>) => Promise<GitResult>;

/**
 * The (real) work tree git's upload-pack would serve for the repository at `path`: `path` when it is a work tree,
 * `path.git` when that one is (git's enter_repo tries path/.git, path, path.git/.git, path.git); undefined for a
 * bare repository or none. Throws when git timed out: the caller cannot tell which files to hide.
 */
export async function upstreamWorkTree(path: string, git: UpstreamGit): Promise<string | undefined> {
  for (const candidate of [path, `${path}.git`]) {
    // git looks at the candidate only, never at a folder above it.
    const env = { GIT_CEILING_DIRECTORIES: dirname(candidate) };
    const kind = await revParse(git, candidate, ['--is-bare-repository', '--is-inside-work-tree'], env);
    if (kind === undefined) continue; // not a repository (or missing): the next candidate
    if (kind !== 'false\ntrue') return undefined; // bare, or a git directory
    return revParse(git, candidate, ['--show-toplevel'], env);
  }
  return undefined;
}

async function revParse(
  git: UpstreamGit,
  directory: string,
  flags: readonly string[],
  env: Record<string, string>,
): Promise<string | undefined> {
  try {
    const { stdout } = await git(['-C', directory, 'rev-parse', ...flags], env);
    return stdout.toString('utf8').trim();
  } catch (error) {
    if (error instanceof GitCommandError && error.timedOut) throw error;
    return undefined;
  }
}
