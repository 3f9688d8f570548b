// The upstream checks that spawn no git: a git:// daemon's refs read over a socket, a smart-HTTP server's over a
// kept-alive connection. Each must answer exactly what `git ls-remote --heads --tags --refs` answers, or step
// aside. (A local repository's are listed by git: upstream-deadline.test.ts.)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { type Server, type Socket, createServer } from 'node:net';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startGitDaemon, type GitDaemon } from '@confbus/testkit/git-daemon';
import { startGitHttpServer } from '@confbus/testkit/git-http';
import { selfSignedCertificate } from '@confbus/testkit/tls-certificate';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { GitCommandError } from '../../src/git/errors.js';
import { daemonAddress, readDaemonRefs } from '../../src/git/git-daemon-refs.js';
import { SmartHttpRefs, smartHttpRefsUrl } from '../../src/git/git-http-refs.js';
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
  const request = (signal = new AbortController().signal, idleTimeoutMs = 10_000) => ({
    idleTimeoutMs,
    idleTimeoutHint: 'x.timeout',
    signal,
  });
  const isStepAside = (error: unknown) => {
    assert.ok(error instanceof GitCommandError, String(error));
    assert.equal(error.timedOut, false);
    return true;
  };

  it('smart HTTP: the same refs as ls-remote, with basic auth, every check on one kept-alive connection', async () => {
    const credentials = { username: 'config', password: 'pa55-word' };
    const http = await startGitHttpServer(dirname(remote.path), { auth: credentials });
    const closing = new AbortController();
    try {
      const uri = http.url('config-repo.git');
      const url = smartHttpRefsUrl(uri);
      assert.ok(url);
      const reader = new SmartHttpRefs(url, {
        safeUri: uri,
        authorization: `Basic ${Buffer.from('config:pa55-word').toString('base64')}`,
        skipSslValidation: false,
      });
      const withCredentials = uri.replace('http://', 'http://config:pa55-word@');
      const first = await reader.read(request(closing.signal));
      assert.deepEqual(sorted(first), sorted(await lsRemote(withCredentials)));
      assert.ok(first.has('refs/tags/v1') && first.has('refs/tags/light'));
      const pushed = await remote.commit({ 'application.yml': 'a: 4\n' });
      const second = await reader.read(request(closing.signal));
      assert.equal(second.get('refs/heads/master'), pushed);
      assert.deepEqual(sorted(second), sorted(await lsRemote(withCredentials)));
      const connectionsBefore = http.connections;
      await reader.read(request(closing.signal));
      assert.equal(http.connections, connectionsBefore, 'the next check reuses the connection');
      closing.abort(); // the mirror closing: the kept-alive connection goes
      await assert.rejects(reader.read(request(closing.signal)), /closed/);
    } finally {
      await http.stop();
    }
  });

  it('smart HTTP: steps aside for git on a refused login, a missing repository and a server that is not git', async () => {
    const http = await startGitHttpServer(dirname(remote.path), {
      auth: { username: 'u', password: 'right' },
    });
    const notGit = createServer((socket) => {
      socket.on('error', () => {});
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 5\r\n\r\nhello');
    });
    notGit.listen(0, '127.0.0.1');
    await once(notGit, 'listening');
    try {
      const options = { skipSslValidation: false };
      const wrong = new SmartHttpRefs(smartHttpRefsUrl(http.url('config-repo.git'))!, {
        ...options,
        safeUri: 'wrong',
        authorization: `Basic ${Buffer.from('u:wrong').toString('base64')}`,
      });
      await assert.rejects(wrong.read(request()), isStepAside);
      const missing = new SmartHttpRefs(smartHttpRefsUrl(http.url('missing.git'))!, {
        ...options,
        safeUri: 'missing',
        authorization: `Basic ${Buffer.from('u:right').toString('base64')}`,
      });
      await assert.rejects(missing.read(request()), isStepAside);
      const port = (notGit.address() as { port: number }).port;
      const html = new SmartHttpRefs(smartHttpRefsUrl(`http://127.0.0.1:${port}/repo.git`)!, {
        ...options,
        safeUri: 'html',
        authorization: undefined,
      });
      await assert.rejects(html.read(request()), isStepAside);
    } finally {
      notGit.close();
      await http.stop();
    }
  });

  it('smart HTTP over TLS: an unknown certificate is refused unless trusted (GIT_SSL_CAINFO) or skip-ssl-validation', async () => {
    const tls = await selfSignedCertificate();
    const https = await startGitHttpServer(dirname(remote.path), { tls });
    try {
      const uri = https.url('config-repo.git');
      const url = smartHttpRefsUrl(uri)!;
      const strict = new SmartHttpRefs(url, {
        safeUri: uri,
        authorization: undefined,
        skipSslValidation: false,
      });
      await assert.rejects(strict.read(request()), isStepAside);
      const skipping = new SmartHttpRefs(url, {
        safeUri: uri,
        authorization: undefined,
        skipSslValidation: true,
      });
      const refs = await skipping.read(request());
      assert.deepEqual(sorted(refs), sorted(await lsRemote(remote.url)));
      // The CA file git would trust (the upstream passes GIT_SSL_CAINFO's file): here, the certificate itself.
      const trusting = new SmartHttpRefs(url, {
        safeUri: uri,
        authorization: undefined,
        skipSslValidation: false,
        ca: Buffer.from(tls.cert),
      });
      assert.deepEqual(sorted(await trusting.read(request())), sorted(refs));
    } finally {
      await https.stop();
    }
  });

  it('smart HTTP: a server that never answers times out, naming the setting', async () => {
    const sockets = new Set<Socket>();
    const hung: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    hung.listen(0, '127.0.0.1');
    await once(hung, 'listening');
    const port = (hung.address() as { port: number }).port;
    try {
      const uri = `http://127.0.0.1:${port}/repo.git`;
      const reader = new SmartHttpRefs(smartHttpRefsUrl(uri)!, {
        safeUri: uri,
        authorization: undefined,
        skipSslValidation: false,
      });
      await assert.rejects(
        reader.read(request(new AbortController().signal, 200)),
        (error: unknown) =>
          error instanceof GitCommandError &&
          error.timedOut &&
          /timed out: no data from the upstream for 0.2 s \(x\.timeout\)/.test(error.message),
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      hung.close();
    }
  });

  it('smart HTTP: takes plain http(s) uris and leaves query strings, credentials and other schemes to git', () => {
    assert.equal(
      smartHttpRefsUrl('https://git.example.com/team/config.git/')?.href,
      'https://git.example.com/team/config.git/info/refs?service=git-upload-pack',
    );
    assert.equal(smartHttpRefsUrl('https://host/r?x=1'), undefined);
    assert.equal(smartHttpRefsUrl('https://user:pw@host/r'), undefined);
    assert.equal(smartHttpRefsUrl('git://host/r'), undefined);
    assert.equal(smartHttpRefsUrl('ssh://host/r'), undefined);
  });
});
