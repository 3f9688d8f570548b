// A large first clone over a slow link: `git.timeout` bounds inactivity, not the transfer, the clone logs its
// progress (objects, bytes) as it goes, and a transfer that stops moving is cut with a message naming the
// setting. The link is a git daemon behind the testkit TCP proxy, throttled so that the clone takes several
// times the timeout by construction (bytes / rate), whatever the machine's speed.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@confbus/testkit/confbus-processes';
import { startGitDaemon, type GitDaemon } from '@confbus/testkit/git-daemon';
import { commitBulkFiles, createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { startTcpProxy, type TcpProxy } from '@confbus/testkit/tcp-proxy';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitMirror, RepositoryUnavailableError } from '../../src/git/index.js';
import { captureLogger, type CaptureLogger } from './helpers.js';

const FILES = 200;
const BYTES_PER_FILE = 16 * 1024;
const RATE = 512 * 1024; // bytes/s: the 3.2 MB clone moves for at least 6 s, three times the 2 s timeout
const TIMEOUT_SECONDS = 2;

interface ProgressEntry {
  phase?: string;
  objects?: number;
  totalObjects?: number;
  received?: string;
}

describe('GitMirror: a large first clone over a slow link', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let daemon: GitDaemon;
  let proxy: TcpProxy;
  const mirrors: GitMirror[] = [];
  const mirror = (name: string, logger: CaptureLogger, timeoutSeconds = TIMEOUT_SECONDS) => {
    const m = new GitMirror({
      uri: `git://127.0.0.1:${proxy.port}/config-repo.git`,
      basedir: join(base.path, name),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds,
      progressLogIntervalMs: 250,
      logger,
    });
    mirrors.push(m);
    return m;
  };
  const progressEntries = (logger: CaptureLogger): ProgressEntry[] =>
    logger.entries
      .filter((e) => e.msg === 'Cloning the configuration repository' && typeof e.obj === 'object')
      .map((e) => e.obj as ProgressEntry)
      .filter((o) => o.phase !== undefined);

  before(async () => {
    remote = await createGitRemote();
    await commitBulkFiles(remote, FILES, BYTES_PER_FILE);
    base = await makeTempDir();
    daemon = await startGitDaemon(dirname(remote.path));
    proxy = await startTcpProxy(daemon.port, { bytesPerSecond: RATE });
  });
  after(async () => {
    await Promise.all(mirrors.map((m) => m.close()));
    await proxy?.stop();
    await daemon?.stop();
    await remote?.remove();
    await base?.remove();
  });

  it('clones although the transfer outlasts git.timeout, logging objects and bytes as it goes', async () => {
    const logger = captureLogger();
    const m = mirror('large', logger);
    assert.equal(m.health().available, false);
    const before = proxy.bytesForwarded;
    const revision = await m.resolve(null);
    assert.equal((await m.readFile(revision.commit, 'application.yml'))?.toString(), `bulk: ${FILES}\n`);
    assert.equal((await m.listFiles(revision.commit)).length, FILES + 1);
    assert.equal(m.health().available, true);
    // The transfer really was long compared with the timeout: at least its bytes at the throttled rate.
    assert.ok(proxy.bytesForwarded - before >= FILES * BYTES_PER_FILE);
    assert.ok((proxy.bytesForwarded - before) / RATE > 2 * TIMEOUT_SECONDS);

    const progress = progressEntries(logger);
    assert.ok(progress.length >= 2, `progress logged repeatedly: ${JSON.stringify(progress)}`);
    // FILES blobs + application.yml + two trees + the commit.
    const receiving = progress.filter((p) => p.phase === 'Receiving objects');
    assert.ok(receiving.length > 0, 'objects being received were logged');
    assert.ok(
      receiving.every((p) => typeof p.objects === 'number' && p.totalObjects === FILES + 4),
      JSON.stringify(receiving),
    );
    assert.ok(
      receiving.some((p) => /^[\d.]+ [KM]iB$/.test(p.received ?? '')),
      `bytes received were logged: ${JSON.stringify(receiving)}`,
    );
  });

  it('a transfer that stops moving is cut after git.timeout, naming the setting', async () => {
    const logger = captureLogger();
    const m = mirror('stalled', logger, 1);
    const clone = m.start();
    await waitFor('the clone to receive objects', () =>
      progressEntries(logger).some((p) => p.phase === 'Receiving objects'),
    );
    proxy.hold(true);
    try {
      await assert.rejects(clone, (e: unknown) => {
        assert.ok(e instanceof RepositoryUnavailableError);
        assert.match(
          e.message,
          /git fetch .* timed out: no data from the upstream for 1 s \(spring\.cloud\.config\.server\.git\.timeout\)/,
        );
        return true;
      });
    } finally {
      proxy.hold(false);
    }
    assert.equal(m.health().available, false);
  });

  it('a silent upstream is cut after git.timeout too (ls-remote)', async () => {
    proxy.hang(true);
    try {
      const m = mirror('silent', captureLogger(), 1);
      await assert.rejects(m.start(), /ls-remote .* timed out: no data from the upstream for 1 s/);
    } finally {
      proxy.hang(false);
    }
  });
});
