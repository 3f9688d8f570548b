// The transport-level counter of git sessions the benchmarks use to count a server's fetches from outside:
// real `git` clients through it to a real `git daemon`, in protocol v0 and v2.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type GitDaemon, startGitDaemon } from '@confbus/testkit/git-daemon';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type GitSessionCounter, startGitSessionCounter } from '@confbus/testkit/git-session-counter';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const exec = promisify(execFile);
const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LANG: 'C' };

describe('git session counter', () => {
  let remote: GitRemote;
  let daemon: GitDaemon;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'a.yml': 'a: 1\n' });
    daemon = await startGitDaemon(dirname(remote.path));
    temp = await makeTempDir('confbus-session-counter-');
  });
  after(async () => {
    await daemon?.stop();
    await remote?.remove();
    await temp?.remove();
  });

  for (const version of ['0', '2']) {
    it(`tells ref listings from fetches that download objects (protocol v${version})`, async () => {
      const counter: GitSessionCounter = await startGitSessionCounter(daemon.port);
      const git = (cwd: string, ...args: string[]) =>
        exec('git', ['-c', `protocol.version=${version}`, ...args], { cwd, env: ENV });
      try {
        const url = counter.url('config-repo.git');
        const clone = join(temp.path, `clone-v${version}`);
        await git(temp.path, 'ls-remote', url);
        assert.deepEqual(counter.counts(), { sessions: 1, packRequests: 0 });
        await git(temp.path, 'clone', '--quiet', '--bare', url, clone);
        assert.deepEqual(counter.counts(), { sessions: 2, packRequests: 1 });
        // Nothing new: a session, no objects asked for.
        await git(clone, 'fetch', '--quiet', url, '+refs/heads/*:refs/heads/*');
        assert.deepEqual(counter.counts(), { sessions: 3, packRequests: 1 });
        await remote.commit({ 'a.yml': `a: ${version}\n` });
        await git(clone, 'fetch', '--quiet', url, '+refs/heads/*:refs/heads/*');
        assert.deepEqual(counter.counts(), { sessions: 4, packRequests: 2 });
      } finally {
        await counter.stop();
      }
    });
  }
});
