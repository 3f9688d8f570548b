// What to do with the directory the mirror lives in (spring.cloud.config.server.git.basedir), decided once at
// start, before the port opens: an empty or missing directory becomes a new bare mirror on first use; a
// repository of the same remote is adopted (ours from a previous run, `git clone --mirror`, or the working
// clone Spring Cloud Config left there); anything else is refused with a message naming the setting, so a
// wrong basedir stops the start instead of failing every request. A first clone that fails leaves nothing behind
// (discardFailedMirror), as Spring deletes its basedir then: never a folder or file that was there before.
import { mkdir, readdir, realpath, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';
import type { GitResult } from './git-process.js';
import { redactUri } from './uri.js';

const BASEDIR_SETTING = 'spring.cloud.config.server.git.basedir';

export interface BasedirState {
  /** Empty or missing (created now, still empty): createMirror() makes the bare mirror when it is first used. */
  empty: boolean;
  /** The mirror holds a complete fetch from a previous run: its refs can be served before any check. */
  fetched: boolean;
  /** It was an existing repository made ours now (not our own mirror from a previous run). */
  adopted: boolean;
  /** basedir did not exist: it was created now (so a failed first clone removes it, not only its contents). */
  created: boolean;
}

/** Runs git with the basedir as working directory (local commands only). */
type LocalGit = (args: readonly string[], options?: { cwd?: string }) => Promise<GitResult>;

/** Prepares `basedir` for a mirror of `safeUri` (credentials already stripped); throws CONFBUS_GIT_BASEDIR. */
export async function prepareBasedir(basedir: string, safeUri: string, git: LocalGit): Promise<BasedirState> {
  const created = (await mkdir(basedir, { recursive: true })) !== undefined;
  if ((await readdir(basedir)).length === 0) return { empty: true, fetched: false, adopted: false, created };
  if (!(await isRepositoryRoot(basedir, git))) {
    throw refusal(
      `${BASEDIR_SETTING} (${basedir}) is not empty and is not a Git repository; confbus keeps its mirror ` +
        'there and does not mix it with other files.',
      safeUri,
    );
  }
  const ours = await configValue(git, 'confbus.uri');
  const origin = await configValue(git, 'remote.origin.url');
  const owner = ours ?? (origin === undefined ? undefined : redactUri(origin));
  if (owner === undefined) {
    throw refusal(
      `${BASEDIR_SETTING} (${basedir}) holds a Git repository that is neither a confbus mirror nor a clone ` +
        "(it has no remote 'origin').",
      safeUri,
    );
  }
  if (sameRemote(owner, safeUri)) {
    if (ours === undefined) await makeOurs(git, safeUri);
    return {
      empty: false,
      fetched: (await configValue(git, 'confbus.fetched')) === 'true',
      adopted: ours === undefined,
      created: false,
    };
  }
  throw refusal(
    `${BASEDIR_SETTING} (${basedir}) holds a Git repository of ${owner}, not of ${safeUri}.`,
    safeUri,
  );
}

/**
 * Makes an empty basedir (see prepareBasedir) a bare mirror of `safeUri`. Done on first use, not at start: a
 * repository that is configured but never asked for costs no git process, and the measured cost of git processes
 * at start is not only their own (docs/benchmarks.md, several repositories). Safe to repeat (git init re-opens).
 */
export async function createMirror(basedir: string, safeUri: string, git: LocalGit): Promise<void> {
  await git(['init', '--bare', '--quiet', '--', basedir], { cwd: undefined });
  await makeOurs(git, safeUri);
}

/**
 * Undoes createMirror after a first clone that failed, so the next attempt (the next request, or another mirror
 * of the same uri) finds basedir as it was: removed when this start created it, emptied when it was an empty folder
 * before (an operator's folder keeps its owner and mode). Only called for a basedir prepareBasedir found empty or
 * missing, so nothing removed here was there before; parent folders mkdir made stay (others may be using them).
 */
export async function discardFailedMirror(
  basedir: string,
  state: Pick<BasedirState, 'created'>,
): Promise<void> {
  if (state.created) {
    await rm(basedir, { recursive: true, force: true });
    return;
  }
  const entries = await readdir(basedir).catch(() => [] as string[]);
  await Promise.all(entries.map((entry) => rm(join(basedir, entry), { recursive: true, force: true })));
}

/**
 * Settings of a mirror that is ours alone: no reflogs; fetches do not gc by themselves (gc.auto 0), the
 * mirror asks for `gc --auto` explicitly, detached, so a repack never counts against a fetch's timeout.
 */
async function makeOurs(git: LocalGit, safeUri: string): Promise<void> {
  await git(['config', 'core.logAllRefUpdates', 'false']);
  await git(['config', 'gc.auto', '0']);
  await git(['config', 'confbus.uri', safeUri]);
}

/**
 * True when basedir itself is a repository (bare, or a working tree with .git), not merely inside one:
 * git would otherwise walk up and use an enclosing repository (e.g. the project the server runs in).
 */
async function isRepositoryRoot(basedir: string, git: LocalGit): Promise<boolean> {
  const bare = await exists(join(basedir, 'HEAD'));
  const work = await exists(join(basedir, '.git'));
  if (!bare && !work) return false;
  try {
    const { stdout } = await git(['rev-parse', '--absolute-git-dir']);
    const gitDir = stdout.toString('utf8').trim();
    const [real, expected] = await Promise.all([
      realpath(gitDir),
      realpath(bare ? basedir : join(basedir, '.git')),
    ]);
    return real === expected;
  } catch {
    return false;
  }
}

/** Two remotes are the same when they differ only in credentials, a trailing slash or a ".git" suffix. */
export function sameRemote(a: string, b: string): boolean {
  const normal = (uri: string) =>
    redactUri(uri)
      .replace(/\/+$/, '')
      .replace(/\.git$/, '');
  return normal(a) === normal(b);
}

function refusal(problem: string, safeUri: string): ConfbusError {
  return new ConfbusError(
    serverErrors.CONFBUS_GIT_BASEDIR,
    `${problem} Point ${BASEDIR_SETTING} at an empty or missing directory, or at a clone or mirror of ${safeUri}.`,
  );
}

async function configValue(git: LocalGit, key: string): Promise<string | undefined> {
  try {
    const value = (await git(['config', '--get', key])).stdout.toString('utf8').trim();
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
