// Upstream failures: stale state served with one warning per outage, recovery logged once,
// RepositoryUnavailableError without local state, and timeouts that kill a hung git.
import assert from 'node:assert/strict';
import { rename } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { startGitDaemon } from '@confbus/testkit/git-daemon';
import { startTcpProxy } from '@confbus/testkit/tcp-proxy';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitMirror, RepositoryUnavailableError } from '../../src/git/index.js';
import { captureLogger } from './helpers.js';

describe('GitMirror when the upstream fails', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  const mirrors: GitMirror[] = [];
  let hung: Server | undefined;
  const sockets = new Set<Socket>();

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
  });
  after(async () => {
    await Promise.all(mirrors.map((m) => m.close()));
    for (const s of sockets) s.destroy();
    if (hung) await new Promise((resolve) => hung?.close(resolve));
    await remote?.remove();
    await base?.remove();
  });

  it('serves the last fetched state while upstream is gone, warns once, and logs recovery once', async () => {
    const pushed = await remote.commit({ 'application.yml': 'a: 1\n' });
    const logger = captureLogger();
    const mirror = new GitMirror({
      uri: remote.url,
      basedir: join(base.path, 'stale'),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      outageRetryMs: { min: 20, max: 100 },
      logger,
    });
    mirrors.push(mirror);
    const events: string[] = [];
    mirror.on('stale', () => events.push('stale'));
    mirror.on('recovered', () => events.push('recovered'));
    await mirror.start();

    const moved = `${remote.path}.away`;
    await rename(remote.path, moved);
    for (let i = 0; i < 10; i++) {
      assert.deepEqual(await mirror.resolve('master'), { label: 'master', commit: pushed, stale: true });
    }
    assert.equal((await mirror.readFile(pushed, 'application.yml'))?.toString(), 'a: 1\n');
    const health = mirror.health();
    assert.equal(health.stale, true);
    assert.ok(health.staleSince instanceof Date);
    assert.match(health.lastError ?? '', /ls-remote/);
    assert.ok(health.lastSuccessAt instanceof Date);
    const warnings = logger.entries.filter((e) => e.level === 'warn');
    assert.equal(warnings.length, 1, 'one warning per outage');
    assert.match(JSON.stringify(warnings[0]), /config-repo\.git/);
    assert.deepEqual((await mirror.refreshNow()).stale, true);

    const recovered = once(mirror, 'recovered');
    await rename(moved, remote.path);
    const newer = await remote.commit({ 'application.yml': 'a: 2\n' });
    // The background check notices the recovery by itself; then requests check upstream again.
    await recovered;
    assert.deepEqual(await mirror.resolve('master'), { label: 'master', commit: newer, stale: false });
    await mirror.resolve('master');
    assert.equal(mirror.health().stale, false);
    assert.equal(mirror.health().staleSince, undefined);
    assert.equal(logger.entries.filter((e) => e.level === 'info' && /again/.test(e.msg ?? '')).length, 1);
    assert.deepEqual(events, ['stale', 'recovered']);

    // A second outage warns again (once).
    await rename(remote.path, moved);
    await mirror.resolve('master');
    await mirror.resolve('master');
    assert.equal(logger.entries.filter((e) => e.level === 'warn').length, 2);
    await rename(moved, remote.path);
  });

  it('without local state, an unreachable upstream is RepositoryUnavailableError (and retried later)', async () => {
    const logger = captureLogger();
    const missing = join(base.path, 'not-yet.git');
    const mirror = new GitMirror({
      uri: missing,
      basedir: join(base.path, 'empty'),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger,
    });
    mirrors.push(mirror);
    await assert.rejects(mirror.start(), (e: unknown) => {
      assert.ok(e instanceof RepositoryUnavailableError);
      assert.equal(e.code, 'CONFBUS_REPOSITORY_UNAVAILABLE');
      assert.match(e.message, /not-yet\.git/);
      return true;
    });
    await assert.rejects(mirror.resolve(null), RepositoryUnavailableError);
    assert.equal(mirror.health().stale, true);
    assert.equal(logger.entries.filter((e) => e.level === 'warn').length, 1);

    // The upstream appears: the next request clones it.
    await rename(remote.path, missing);
    try {
      const resolved = await mirror.resolve(null);
      assert.equal(resolved.stale, false);
      assert.equal(resolved.label, 'master');
    } finally {
      await rename(missing, remote.path);
    }
  });

  it('kills a git that receives nothing for timeoutSeconds, naming the setting', async () => {
    // A git:// "server" that accepts connections and never answers.
    hung = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    hung.listen(0, '127.0.0.1');
    await once(hung, 'listening');
    const address = hung.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const mirror = new GitMirror({
      uri: `git://127.0.0.1:${port}/repo.git`,
      basedir: join(base.path, 'hung'),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 1,
      logger: captureLogger(),
    });
    mirrors.push(mirror);
    await assert.rejects(mirror.start(), RepositoryUnavailableError);
    assert.match(
      mirror.health().lastError ?? '',
      /timed out: no data from the upstream for 1 s \(spring\.cloud\.config\.server\.git\.timeout\)/,
    );
  });

  it(
    'during a hung upstream answers from the last state at once and recovers without a request',
    { timeout: 120_000 },
    async () => {
      const daemon = await startGitDaemon(dirname(remote.path));
      const proxy = await startTcpProxy(daemon.port);
      try {
        const pushed = await remote.commit({ 'application.yml': 'hung: 1\n' });
        const mirror = new GitMirror({
          uri: `git://127.0.0.1:${proxy.port}/${basename(remote.path)}`,
          basedir: join(base.path, 'hung-later'),
          defaultLabel: 'master',
          refreshRateSeconds: 0,
          timeoutSeconds: 2,
          outageRetryMs: { min: 50, max: 200 },
          logger: captureLogger(),
        });
        mirrors.push(mirror);
        await mirror.start();
        proxy.hang(true);
        // The first request meets the hung check and is answered once the check times out (the outage starts).
        assert.deepEqual(await mirror.resolve('master'), { label: 'master', commit: pushed, stale: true });
        const checksBefore = mirror.health().checks;
        // Every later request is answered from the last state without waiting for upstream (issue #15: each one
        // waited git.timeout); at most the one background check runs meanwhile.
        const answers = await Promise.all(Array.from({ length: 20 }, () => mirror.resolve('master')));
        for (let i = 0; i < 10; i++) answers.push(await mirror.resolve('master'));
        assert.ok(answers.every((a) => a.commit === pushed && a.stale));
        assert.ok(
          mirror.health().checks - checksBefore <= 1,
          `checks ${mirror.health().checks - checksBefore}`,
        );
        // Upstream back: health recovers through the background checks alone, no request needed.
        const recovered = once(mirror, 'recovered');
        proxy.hang(false);
        await recovered;
        assert.equal(mirror.health().stale, false);
      } finally {
        await proxy.stop();
        await daemon.stop();
      }
    },
  );
});
