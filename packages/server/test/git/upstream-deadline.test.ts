// Every read of an upstream runs under the one deadline (git.timeout), a local upstream's too: its files are read
// by git child processes, never in this process, where an open() of a FIFO or of a file on a hung mount would hold
// one of libuv's four file-system threads for good (issue 23, item 3). Real git, real FIFOs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import type { GitMirror } from '../../src/git/index.js';
import { MirrorGit } from '../../src/git/mirror-git.js';
import { Upstream } from '../../src/git/upstream.js';
import { localUpstreamPath } from '../../src/git/upstream-work-tree.js';
import { captureLogger, testMirror } from './helpers.js';

const exec = promisify(execFile);
const mkfifo = (path: string) => exec('mkfifo', [path]);
/** More hung upstreams than libuv has file-system threads (4). */
const HUNG = 5;

describe('the upstream deadline', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  const remotes: GitRemote[] = [];
  const mirrors: GitMirror[] = [];

  before(async () => {
    temp = await makeTempDir('confbus-upstream-deadline-');
    for (let i = 0; i < HUNG; i++) {
      const remote = await createGitRemote(`hung${i}`);
      await remote.commit({ 'application.yml': `n: ${i}\n` });
      await mkfifo(join(remote.path, 'packed-refs'));
      remotes.push(remote);
    }
  });
  after(async () => {
    for (const mirror of mirrors) await mirror.close();
    for (const remote of remotes) await remote.remove();
    await temp?.remove();
  });

  it(
    'a hung local upstream times out naming git.timeout, holds no file-system thread, and recovers',
    {
      timeout: 60_000,
    },
    async () => {
      for (const [i, remote] of remotes.entries())
        mirrors.push(testMirror({ uri: remote.url, basedir: join(temp.path, `m${i}`), timeoutSeconds: 2 }));
      let settled = 0;
      const starts = mirrors.map((mirror) =>
        mirror.start().then(
          () => assert.fail('a hung upstream cannot be cloned'),
          (error: unknown) => {
            settled++;
            return error as Error;
          },
        ),
      );
      await waitFor('every upstream check to have started', () =>
        mirrors.every((mirror) => mirror.health().lastCheckAt !== undefined),
      );
      // The file-system threads are free: reads of this process's own files answer while the checks hang.
      const reads = await Promise.all(
        Array.from({ length: 8 }, () => readFile(join(remotes[0]!.path, 'HEAD'))),
      );
      assert.equal(reads.length, 8);
      assert.equal(settled, 0, 'the hung checks were still waiting for their deadline');

      for (const error of await Promise.all(starts)) {
        assert.match(
          error.message,
          /timed out: no data from the upstream for 2 s \(spring\.cloud\.config\.server\.git\.timeout\)/,
        );
      }
      const health = mirrors[0]!.health();
      assert.equal(health.available, false);
      assert.match(health.lastError ?? '', /timed out/);

      await rm(join(remotes[0]!.path, 'packed-refs'));
      await mirrors[0]!.start();
      assert.match((await mirrors[0]!.resolve(null)).commit, /^[0-9a-f]{40}$/);
      assert.equal(mirrors[0]!.health().lastError, undefined);
    },
  );

  it(
    'close() ends a check hung on a local upstream at once, not at the deadline',
    { timeout: 30_000 },
    async () => {
      const mirror = testMirror({
        uri: remotes[1]!.url,
        basedir: join(temp.path, 'closing'),
        timeoutSeconds: 600,
      });
      const start = mirror.start().then(
        () => 'cloned',
        (error: unknown) => (error as Error).message,
      );
      await waitFor('the upstream check to start', () => mirror.health().lastCheckAt !== undefined);
      await mirror.close();
      assert.doesNotMatch(await start, /cloned|timed out/);
    },
  );

  it(
    "open() goes on when git cannot tell a local upstream's work tree in time, hiding the server's files",
    {
      timeout: 30_000,
    },
    async () => {
      const hung = join(temp.path, 'hung-work');
      await exec('git', ['init', '--quiet', hung]);
      await rm(join(hung, '.git', 'HEAD'));
      await mkfifo(join(hung, '.git', 'HEAD'));
      const asked: string[] = [];
      const ownFiles = {
        paths: [join(hung, 'application.yml')],
        inside: (directory: string) => (asked.push(directory), directory === hung ? ['application.yml'] : []),
      };
      const logger = captureLogger();
      const mirror = testMirror({
        uri: hung,
        basedir: join(temp.path, 'hung-open'),
        timeoutSeconds: 1,
        ownFiles,
        logger,
      });
      mirrors.push(mirror);
      await mirror.open();
      assert.deepEqual(asked, [hung, `${hung}.git`]);
      assert.ok(
        logger.entries.some((e) => e.level === 'warn' && /hiding them as if it did/.test(e.msg ?? '')),
        logger.text(),
      );
    },
  );

  it("a local upstream's work tree is found by git, under the deadline", { timeout: 30_000 }, async () => {
    const root = join(temp.path, 'trees');
    await mkdir(root);
    const work = join(root, 'work');
    await exec('git', ['init', '--quiet', work]);
    await symlink(work, join(root, 'linked'));
    await exec('git', ['init', '--quiet', '--bare', join(root, 'bare.git')]);
    await exec('git', ['init', '--quiet', join(root, 'suffixed.git')]);
    await mkdir(join(root, 'plain'));
    const hung = join(root, 'hung');
    await exec('git', ['init', '--quiet', hung]);
    await rm(join(hung, '.git', 'HEAD'));
    await mkfifo(join(hung, '.git', 'HEAD'));

    const git = new MirrorGit(root, []);
    const workTree = (uri: string, timeoutSeconds = 30) =>
      new Upstream({ uri, timeoutSeconds, progressLogIntervalMs: 60_000, logger: captureLogger() })
        .workTrees(git.run)
        .then(({ trees, error }) => (error === undefined ? trees[0] : { trees, error }));
    try {
      assert.equal(
        await workTree(`file://${join(root, 'linked')}`),
        work,
        'the real path, as git reports it',
      );
      assert.equal(await workTree(join(root, 'work')), work);
      assert.equal(
        await workTree(join(root, 'suffixed')),
        join(root, 'suffixed.git'),
        'path.git, as upload-pack',
      );
      assert.equal(await workTree(join(root, 'bare.git')), undefined, 'bare');
      assert.equal(await workTree(join(root, 'work', '.git')), undefined, 'a git directory');
      assert.equal(await workTree(join(root, 'plain')), undefined, 'not a repository');
      assert.equal(await workTree(join(root, 'missing')), undefined, 'missing');
      assert.equal(await workTree('https://host/repo.git'), undefined, 'not local');
      // git cannot tell in time: both places the work tree could be, so the server's own files are hidden there.
      const unknown = await workTree(hung, 1);
      assert.deepEqual(typeof unknown === 'object' && unknown.trees, [hung, `${hung}.git`]);
      assert.match(
        typeof unknown === 'object' ? unknown.error : '',
        /timed out: no data from the upstream for 1 s/,
      );
    } finally {
      git.close();
    }
    assert.equal(localUpstreamPath('relative/path'), undefined);
    assert.equal(localUpstreamPath('file:///srv/config.git'), '/srv/config.git');
  });
});
