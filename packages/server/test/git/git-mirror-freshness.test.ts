// Freshness: a push between two resolves is seen (refresh-rate 0), bursts are coalesced into 1-2
// checks, refresh-rate N does not re-check within N, and refreshNow() forces a check.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import type { GitMirror, GitMirrorOptions } from '../../src/git/index.js';
import { testMirror } from './helpers.js';

describe('GitMirror freshness', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  const mirrors: GitMirror[] = [];
  let n = 0;

  const open = (overrides: Partial<GitMirrorOptions> = {}) => {
    const mirror = testMirror({ uri: remote.url, basedir: `${base.path}/m${n++}`, ...overrides });
    mirrors.push(mirror);
    return mirror;
  };

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
    await remote.commit({ 'application.yml': 'v: 0\n' });
  });

  after(async () => {
    await Promise.all(mirrors.map((m) => m.close()));
    await remote?.remove();
    await base?.remove();
  });

  it('refresh-rate 0: every push made before a resolve is seen by it', async () => {
    const mirror = open();
    const fetched: { changed: boolean; refs: number }[] = [];
    mirror.on('fetched', (o) => fetched.push(o));
    for (let i = 1; i <= 3; i++) {
      const pushed = await remote.commit({ 'application.yml': `v: ${i}\n` });
      const resolved = await mirror.resolve(null);
      assert.equal(resolved.commit, pushed);
      assert.equal((await mirror.readFile(resolved.commit, 'application.yml'))?.toString(), `v: ${i}\n`);
    }
    // Unchanged upstream: a check (ls-remote) but no fetch.
    const before = mirror.health();
    await mirror.resolve(null);
    const afterwards = mirror.health();
    assert.equal(afterwards.checks, before.checks + 1);
    assert.equal(afterwards.fetches, before.fetches);
    assert.deepEqual(fetched.at(-1), { changed: false, refs: 1 });
    assert.ok(fetched.some((f) => f.changed));
  });

  it('refresh-rate 0: 100 concurrent resolves after a push cost 1-2 checks and all see the push', async () => {
    const mirror = open();
    await mirror.start();
    const pushed = await remote.commit({ 'application.yml': 'burst\n' });
    const checksBefore = mirror.health().checks;
    const results = await Promise.all(Array.from({ length: 100 }, () => mirror.resolve('master')));
    for (const r of results) assert.equal(r.commit, pushed);
    const checks = mirror.health().checks - checksBefore;
    assert.ok(checks >= 1 && checks <= 2, `expected 1-2 checks, got ${checks}`);
  });

  it('a resolve arriving while a check is in flight waits for the next check', async () => {
    const mirror = open();
    await mirror.start();
    const checksBefore = mirror.health().checks;
    // Both calls start synchronously: the first starts a check, the second arrives while it is in flight.
    const [a, b] = await Promise.all([mirror.resolve('master'), mirror.resolve('master')]);
    assert.equal(a.commit, b.commit);
    assert.equal(mirror.health().checks - checksBefore, 2);

    const first = mirror.resolve('master'); // a check is now in flight
    const pushed = await remote.commit({ 'application.yml': 'late\n' });
    // Whether or not the first check saw the push, a resolve made after it must.
    assert.equal((await mirror.resolve('master')).commit, pushed);
    await first;
  });

  it('refresh-rate 0: the first request sees a push made while the boot-time clone runs (many tries)', async () => {
    // A clone slow enough (incompressible data) that the push lands after it listed the refs, before it ends.
    const slow = await createGitRemote('slow-clone');
    try {
      await slow.commit({ 'application.yml': 'v: 0\n', 'ballast.bin': randomBytes(2 << 20) });
      for (let i = 0; i < 6; i++) {
        const mirror = open({ uri: slow.url });
        const booting = mirror.start(); // as the server does when it starts, before any request
        await waitFor(
          'the boot-time clone to list the refs',
          () => mirror.health().lastCheckAt !== undefined,
        );
        const pushed = await slow.commit({ 'application.yml': `v: ${i + 1}\n` });
        const [resolved, webhook] = await Promise.all([mirror.resolve(null), mirror.refreshNow()]);
        assert.equal(resolved.commit, pushed, `try ${i}: the request sees the push made before it`);
        assert.equal(webhook.stale, false);
        assert.equal((await mirror.resolveFetched(null)).commit, pushed, `try ${i}: the webhook saw it too`);
        await booting;
        await mirror.close();
      }
    } finally {
      await slow.remove();
    }
  });

  it('refresh-rate N: no second check within N seconds; refreshNow() forces one', async () => {
    const mirror = open({ refreshRateSeconds: 3600 });
    await mirror.start();
    const startChecks = mirror.health().checks;
    const old = (await mirror.resolve('master')).commit;
    const pushed = await remote.commit({ 'application.yml': 'rate\n' });
    for (let i = 0; i < 20; i++) assert.equal((await mirror.resolve('master')).commit, old);
    assert.equal(mirror.health().checks, startChecks, 'no check within the refresh rate');
    const outcome = await mirror.refreshNow();
    assert.deepEqual(outcome, { changed: true, refs: 1, stale: false });
    assert.equal(mirror.health().checks, startChecks + 1);
    assert.equal((await mirror.resolve('master')).commit, pushed);
  });

  it('resolveNow answers from memory only when resolve() would not check: never with refresh-rate 0', async () => {
    const eager = open();
    assert.equal(eager.resolveNow('master'), undefined, 'nothing fetched yet');
    const head = (await eager.resolve('master')).commit;
    const checks = eager.health().checks;
    assert.equal(eager.resolveNow('master'), undefined, 'refresh-rate 0: every answer waits for a check');
    assert.deepEqual(eager.resolveNow('master', head.toUpperCase()), {
      label: 'master',
      commit: head,
      stale: false,
    });
    assert.equal(eager.health().checks, checks, 'resolveNow starts no check');

    const cached = open({ refreshRateSeconds: 3600, defaultLabel: 'main' });
    await cached.start();
    const now = cached.resolveNow(null);
    assert.deepEqual(
      now,
      await cached.resolve(null),
      "the same answer as resolve(), 'main' → 'master' included",
    );
    assert.equal(cached.resolveNow('no-such-branch'), undefined);
    assert.equal(cached.resolveNow('bad..label'), undefined);
    const pushed = await remote.commit({ 'application.yml': 'hinted\n' });
    assert.equal(cached.resolveNow(null, pushed), undefined, 'a hint not at the head waits for a check');
    assert.equal(cached.resolveNow(null)?.commit, now?.commit);
  });

  it('refresh-rate < 0: never checks after start', async () => {
    const mirror = open({ refreshRateSeconds: -1 });
    const old = (await mirror.resolve('master')).commit;
    await remote.commit({ 'application.yml': 'never\n' });
    for (let i = 0; i < 5; i++) assert.equal((await mirror.resolve('master')).commit, old);
    assert.equal(mirror.health().checks, 1);
  });

  it('reuses an existing mirror in basedir and picks up new pushes', async () => {
    const basedir = `${base.path}/reused`;
    const firstMirror = open({ basedir });
    await firstMirror.start();
    await firstMirror.close();
    const pushed = await remote.commit({ 'application.yml': 'reuse\n' });
    const second = open({ basedir });
    assert.equal((await second.resolve('master')).commit, pushed);
  });

  it('refuses a basedir that holds something else', async () => {
    const other = open({ basedir: `${base.path}/m0`, uri: 'file:///elsewhere/repo.git' });
    await assert.rejects(
      other.start(),
      /holds a Git repository of file:\/\/\/.*config-repo\.git, not of file:\/\/\/elsewhere/,
    );
  });
});
