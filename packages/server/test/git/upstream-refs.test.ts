// The upstream checks that spawn no git: a local repository's refs read from its files, a git:// daemon's read
// over a socket. Each must answer exactly what `git ls-remote --heads --tags --refs` answers, or step aside.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { type Server, type Socket, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startGitDaemon, type GitDaemon } from '@confbus/testkit/git-daemon';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { GitCommandError } from '../../src/git/errors.js';
import { daemonAddress, readDaemonRefs } from '../../src/git/git-daemon-refs.js';
import { localUpstreamPath, readLocalUpstreamRefs } from '../../src/git/local-upstream-refs.js';
import { parseLsRemote } from '../../src/git/refs.js';

const exec = promisify(execFile);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

async function lsRemote(uri: string): Promise<Map<string, string>> {
  const { stdout } = await exec('git', ['ls-remote', '--heads', '--tags', '--refs', uri], { env });
  return parseLsRemote(stdout);
}

const sorted = (refs: Map<string, string> | undefined) => [...(refs ?? new Map())].sort();

describe('upstream refs without spawning git', () => {
  let remote: GitRemote;
  let daemon: GitDaemon;
  const bareGit = (...args: string[]) => exec('git', ['-C', remote.path, ...args], { env });

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'a: 1\n' }, { tag: 'v1' });
    await remote.commit({ 'application.yml': 'a: 2\n' }, { branch: 'feature/nested' });
    await remote.git('tag', 'light');
    await remote.git('push', '--quiet', 'origin', 'refs/tags/light');
    daemon = await startGitDaemon(dirname(remote.path));
  });
  after(async () => {
    await daemon?.stop();
    await remote?.remove();
  });

  it('a local repository: the same refs as ls-remote, loose, packed, then loose over packed, and deleted', async () => {
    assert.equal(localUpstreamPath(remote.url), remote.path);
    assert.deepEqual(sorted(await readLocalUpstreamRefs(remote.path)), sorted(await lsRemote(remote.url)));
    await bareGit('pack-refs', '--all');
    assert.deepEqual(sorted(await readLocalUpstreamRefs(remote.path)), sorted(await lsRemote(remote.url)));
    const pushed = await remote.commit({ 'application.yml': 'a: 3\n' });
    const afterPush = await readLocalUpstreamRefs(remote.path);
    assert.equal(afterPush?.get('refs/heads/master'), pushed, 'a loose ref written after packing wins');
    assert.deepEqual(sorted(afterPush), sorted(await lsRemote(remote.url)));
    await remote.git('push', '--quiet', 'origin', ':refs/heads/feature/nested');
    const afterDelete = await readLocalUpstreamRefs(remote.path);
    assert.equal(afterDelete?.has('refs/heads/feature/nested'), false);
    assert.deepEqual(sorted(afterDelete), sorted(await lsRemote(remote.url)));
  });

  it('a local repository it does not model exactly steps aside (symbolic ref, hidden refs, not a repository)', async () => {
    const other = await createGitRemote('odd');
    try {
      await other.commit({ 'a.yml': 'a: 1\n' });
      assert.ok(await readLocalUpstreamRefs(other.path));
      await writeFile(join(other.path, 'refs', 'heads', 'alias'), 'ref: refs/heads/master\n');
      assert.equal(await readLocalUpstreamRefs(other.path), undefined, 'symbolic ref');
      await rm(join(other.path, 'refs', 'heads', 'alias'));
      assert.ok(await readLocalUpstreamRefs(other.path));
      await appendFile(join(other.path, 'config'), '[uploadpack]\n\thideRefs = refs/tags\n');
      assert.equal(await readLocalUpstreamRefs(other.path), undefined, 'hidden refs');
      const empty = join(dirname(other.path), 'not-a-repo');
      await mkdir(empty);
      assert.equal(await readLocalUpstreamRefs(empty), undefined, 'not a repository');
      assert.equal(localUpstreamPath('https://host/repo.git'), undefined);
      assert.equal(localUpstreamPath('relative/path'), undefined);
    } finally {
      await other.remove();
    }
  });

  it('git://: the same refs as ls-remote over the daemon', async () => {
    const uri = daemon.url('config-repo.git');
    const address = daemonAddress(uri);
    assert.ok(address);
    const refs = await readDaemonRefs(address, {
      safeUri: uri,
      idleTimeoutMs: 10_000,
      idleTimeoutHint: 'the setting',
      signal: new AbortController().signal,
    });
    assert.deepEqual(sorted(refs), sorted(await lsRemote(uri)));
    assert.ok(refs.has('refs/tags/v1') && refs.has('refs/tags/light'));
  });

  it('git://: a repository the daemon does not serve is a failure that is not a timeout', async () => {
    const uri = daemon.url('missing.git');
    const address = daemonAddress(uri);
    assert.ok(address);
    const options = {
      safeUri: uri,
      idleTimeoutMs: 10_000,
      idleTimeoutHint: 'h',
      signal: new AbortController().signal,
    };
    await assert.rejects(readDaemonRefs(address, options), (error: unknown) => {
      assert.ok(error instanceof GitCommandError, String(error));
      assert.equal(error.timedOut, false);
      return true;
    });
  });

  it('git://: a daemon that never answers times out, naming the setting; closing the mirror aborts', async () => {
    const sockets = new Set<Socket>();
    const hung: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    hung.listen(0, '127.0.0.1');
    await once(hung, 'listening');
    const port = (hung.address() as { port: number }).port;
    const address = daemonAddress(`git://127.0.0.1:${port}/repo.git`);
    assert.ok(address);
    try {
      const base = { safeUri: `git://127.0.0.1:${port}/repo.git`, idleTimeoutHint: 'x.timeout' };
      await assert.rejects(
        readDaemonRefs(address, { ...base, idleTimeoutMs: 200, signal: new AbortController().signal }),
        /timed out: no data from the upstream for 0.2 s \(x\.timeout\)/,
      );
      const closing = new AbortController();
      const pending = readDaemonRefs(address, { ...base, idleTimeoutMs: 60_000, signal: closing.signal });
      closing.abort();
      await assert.rejects(pending, /closed/);
    } finally {
      for (const socket of sockets) socket.destroy();
      hung.close();
    }
  });

  it('parses git:// addresses as git does, and leaves the unusual to git', () => {
    assert.deepEqual(daemonAddress('git://example.com/team/repo.git'), {
      host: 'example.com',
      port: 9418,
      hostHeader: 'example.com',
      path: '/team/repo.git',
    });
    assert.equal(daemonAddress('git://[::1]:9000/r')?.host, '::1');
    assert.equal(daemonAddress('git://[::1]:9000/r')?.port, 9000);
    assert.equal(daemonAddress('git://host/a%20b'), undefined);
    assert.equal(daemonAddress('ssh://host/r'), undefined);
  });
});
