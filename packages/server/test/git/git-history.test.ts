// The console's history queries against a real mirror: labels, a commit's summary, the log of files with paging,
// literal paths (a `*` in a name is not a glob), and the cache giving the same answer after a push.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitHistory, GitMirror } from '../../src/git/index.js';
import { captureLogger } from './helpers.js';

describe('GitHistory', () => {
  let remote: GitRemote;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let mirror: GitMirror;
  let history: GitHistory;
  const commits: string[] = [];

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir('confbus-history-');
    commits.push(await remote.commit({ 'foo.yml': 'a: 1\n', 'bar.yml': 'b: 1\n' }, { message: 'first' }));
    commits.push(await remote.commit({ 'foo-dev.yml': 'a: 2\n' }, { message: 'foo dev', tag: 'v1' }));
    commits.push(await remote.commit({ 'bar.yml': 'b: 2\n' }, { message: 'bar again' }));
    commits.push(await remote.commit({ 'foo.yml': 'a: 3\n', 'f*.yml': 'x: 1\n' }, { message: 'foo\tthird' }));
    await remote.commit({ 'other.yml': 'o: 1\n' }, { branch: 'feature/x', message: 'on a branch' });
    mirror = new GitMirror({
      uri: remote.url,
      basedir: `${temp.path}/mirror`,
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 10,
      logger: captureLogger(),
    });
    await mirror.start();
    history = new GitHistory(`${temp.path}/mirror`);
  });

  after(async () => {
    await mirror?.close();
    await temp?.remove();
    await remote?.remove();
  });

  it('lists branches, then tags peeled to their commit', async () => {
    const labels = await history.labels();
    assert.deepEqual(
      labels.map((l) => [l.kind, l.name]),
      [
        ['branch', 'feature/x'],
        ['branch', 'master'],
        ['tag', 'v1'],
      ],
    );
    assert.equal(labels.find((l) => l.name === 'v1')?.commit, commits[1]);
    assert.equal(labels.find((l) => l.name === 'master')?.commit, commits[3]);
    await remote.commit({ 'foo.yml': 'a: 4\n' }, { tag: 'v2' });
    await mirror.refreshNow();
    assert.ok(!(await history.labels()).some((l) => l.name === 'v2'), 'kept until told the refs moved');
    history.refsChanged();
    assert.ok((await history.labels()).some((l) => l.name === 'v2'));
  });

  it('summarises a commit: parents, author, ISO time, subject', async () => {
    const summary = await history.commit(commits[1]!);
    assert.equal(summary.commit, commits[1]);
    assert.deepEqual(summary.parents, [commits[0]]);
    assert.equal(summary.author, 'Confbus Test');
    assert.ok(!Number.isNaN(Date.parse(summary.time)), summary.time);
    assert.equal(summary.message, 'foo dev');
    assert.deepEqual((await history.commit(commits[0]!)).parents, []);
  });

  it('lists the commits that touched the given files, newest first, a page at a time', async () => {
    const head = commits[3]!;
    const all = await history.log({ commit: head, paths: ['foo.yml', 'foo-dev.yml'], offset: 0, limit: 10 });
    assert.deepEqual(
      all.commits.map((c) => c.commit),
      [commits[3], commits[1], commits[0]],
    );
    assert.equal(all.more, false);
    assert.equal(all.commits[0]?.message, 'foo\tthird');
    const first = await history.log({ commit: head, paths: ['foo.yml', 'foo-dev.yml'], offset: 0, limit: 2 });
    assert.deepEqual(
      first.commits.map((c) => c.commit),
      [commits[3], commits[1]],
    );
    assert.equal(first.more, true);
    const second = await history.log({
      commit: head,
      paths: ['foo.yml', 'foo-dev.yml'],
      offset: 2,
      limit: 2,
    });
    assert.deepEqual(
      second.commits.map((c) => c.commit),
      [commits[0]],
    );
    assert.equal(second.more, false);
  });

  it('treats paths literally: `f*.yml` is one file, not a glob over foo.yml', async () => {
    const page = await history.log({ commit: commits[3]!, paths: ['f*.yml'], offset: 0, limit: 10 });
    assert.deepEqual(
      page.commits.map((c) => c.commit),
      [commits[3]],
    );
    const none = await history.log({ commit: commits[3]!, paths: ['missing.yml'], offset: 0, limit: 10 });
    assert.deepEqual(none.commits, []);
  });

  it('refuses anything but a full commit id, so no revision syntax or option reaches git', async () => {
    await assert.rejects(history.commit('--output=/tmp/x'), TypeError);
    await assert.rejects(
      history.log({ commit: 'HEAD~1', paths: ['foo.yml'], offset: 0, limit: 1 }),
      TypeError,
    );
  });
});
