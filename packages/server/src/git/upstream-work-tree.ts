// The work tree of an upstream on this machine, if it has one: where the files of its commits also lie on disk,
// so where the server's own settings file could be one of them (../settings/server-own-files.ts).
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { localUpstreamPath } from './local-upstream-refs.js';

/**
 * The work tree git's upload-pack would serve for `uri`: `path` when `path/.git` is a repository, `path.git` when
 * `path.git/.git` is (git's enter_repo tries path/.git, path, path.git/.git, path.git); undefined for a bare or
 * remote repository.
 */
export async function upstreamWorkTree(uri: string): Promise<string | undefined> {
  const path = localUpstreamPath(uri);
  if (path === undefined) return undefined;
  for (const candidate of [path, `${path}.git`]) {
    const gitDir = await stat(join(candidate, '.git')).catch(() => undefined);
    if (gitDir !== undefined) return candidate;
    if (await stat(join(candidate, 'HEAD')).catch(() => undefined)) return undefined;
  }
  return undefined;
}
