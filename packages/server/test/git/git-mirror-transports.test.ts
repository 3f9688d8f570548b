// Network transports: git:// through a real `git daemon`, and smart HTTP with basic auth through
// `git http-backend`, asserting that credentials reach the server but never argv, logs or errors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGitDaemon, type GitDaemon } from '@confbus/testkit/git-daemon';
import { startGitHttpServer, type GitHttpServer } from '@confbus/testkit/git-http';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitMirror, RepositoryUnavailableError } from '../../src/git/index.js';
import { captureLogger } from './helpers.js';

describe('GitMirror over git:// and smart HTTP', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let daemon: GitDaemon;
  let http: GitHttpServer;
  const mirrors: GitMirror[] = [];
  const password = 's3cr3t-Pa55';
  let argvLog = '';
  const originalPath = process.env.PATH;

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
    // A `git` shim first on PATH records every argv the mirror uses, then runs the real git.
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    argvLog = join(base.path, 'argv.log');
    await writeFile(join(base.path, 'git'), `#!/bin/sh\necho "$*" >> '${argvLog}'\nexec '${realGit}' "$@"\n`);
    await chmod(join(base.path, 'git'), 0o755);
    process.env.PATH = `${base.path}:${originalPath ?? ''}`;
    await remote.commit({ 'application.yml': 'a: 1\n' }, { tag: 'v1' });
    daemon = await startGitDaemon(dirname(remote.path));
    http = await startGitHttpServer(dirname(remote.path), { auth: { username: 'config', password } });
  });
  after(async () => {
    process.env.PATH = originalPath;
    await Promise.all(mirrors.map((m) => m.close()));
    await daemon?.stop();
    await http?.stop();
    await remote?.remove();
    await base?.remove();
  });

  it('git://: clones, resolves branch and tag, and sees pushes', async () => {
    const mirror = new GitMirror({
      uri: daemon.url('config-repo.git'),
      basedir: join(base.path, 'daemon'),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger: captureLogger(),
    });
    mirrors.push(mirror);
    const v1 = (await mirror.resolve('v1')).commit;
    assert.equal((await mirror.readFile(v1, 'application.yml'))?.toString(), 'a: 1\n');
    const pushed = await remote.commit({ 'application.yml': 'a: 2\n' });
    assert.equal((await mirror.resolve(null)).commit, pushed);
    assert.equal(mirror.health().uri, daemon.url('config-repo.git'));
  });

  it('https-style basic auth: credentials sent as a header, never logged or in errors', async () => {
    const logger = captureLogger();
    // A server of its own: this test stops it, and the others keep theirs.
    const own = await startGitHttpServer(dirname(remote.path), { auth: { username: 'config', password } });
    const mirror = new GitMirror({
      uri: own.url('config-repo.git'),
      basedir: join(base.path, 'http'),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      username: 'config',
      password,
      logger,
    });
    mirrors.push(mirror);
    const pushed = await remote.commit({ 'application.yml': 'a: 3\n' });
    assert.equal((await mirror.resolve('master')).commit, pushed);
    assert.ok(own.authorizations.some((a) => a?.startsWith('Basic ')));
    assert.equal(mirror.health().stale, false);

    // Upstream goes away (server stopped): stale, one warning, still no secret anywhere.
    await own.stop();
    assert.equal((await mirror.resolve('master')).stale, true);
    const everything = `${logger.text()}\n${JSON.stringify(mirror.health())}`;
    assert.ok(!everything.includes(password), 'password leaked');
    assert.ok(
      !everything.includes(Buffer.from(`config:${password}`).toString('base64')),
      'auth header leaked',
    );
    assert.equal(logger.entries.filter((e) => e.level === 'warn').length, 1);
  });

  it('credentials embedded in the uri are moved to a header and stripped from logs, health and errors', async () => {
    const logger = captureLogger();
    const url = new URL(http.url('config-repo.git'));
    url.username = 'config';
    url.password = password;
    const mirror = new GitMirror({
      uri: url.href,
      basedir: join(base.path, 'http-embedded'),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger,
    });
    mirrors.push(mirror);
    await mirror.resolve('master');
    assert.equal(mirror.health().uri, http.url('config-repo.git'));

    const wrong = new GitMirror({
      uri: http.url('config-repo.git').replace('http://', `http://config:${password}x@`),
      basedir: join(base.path, 'http-wrong'),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger,
    });
    mirrors.push(wrong);
    let message = '';
    await assert.rejects(wrong.start(), (e: unknown) => {
      assert.ok(e instanceof RepositoryUnavailableError);
      message = `${e.message} ${String(e.cause)}`;
      return true;
    });
    const everything = `${logger.text()}\n${message}\n${JSON.stringify(wrong.health())}`;
    assert.ok(!everything.includes(password), 'password leaked');
  });

  it('never puts credentials in any git argv', async () => {
    // Its own mirrors, with credentials set apart and embedded in the uri: the argv log then holds their
    // commands whatever ran before.
    const embedded = new URL(http.url('config-repo.git'));
    embedded.username = 'config';
    embedded.password = password;
    for (const [name, credentials] of [
      ['argv-explicit', { uri: http.url('config-repo.git'), username: 'config', password }],
      ['argv-embedded', { uri: embedded.href }],
    ] as const) {
      const mirror = new GitMirror({
        ...credentials,
        basedir: join(base.path, name),
        defaultLabel: 'master',
        refreshRateSeconds: 0,
        timeoutSeconds: 30,
        logger: captureLogger(),
      });
      mirrors.push(mirror);
      await mirror.resolve('master');
    }
    const argv = await readFile(argvLog, 'utf8');
    assert.match(argv, /fetch .*127\.0\.0\.1/, 'the shim saw the network commands');
    assert.ok(!argv.includes(password));
    assert.ok(!argv.includes('config@'));
  });
  it('smart HTTP: upstream checks read the refs from Node, spawning no git, and still see every push', async () => {
    const mirror = new GitMirror({
      uri: http.url('config-repo.git'),
      basedir: join(base.path, 'http-checks'),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      username: 'config',
      password,
      logger: captureLogger(),
    });
    mirrors.push(mirror);
    await mirror.resolve('master');
    const before = (await readFile(argvLog, 'utf8')).split('\n').length;
    for (let i = 0; i < 3; i++) await mirror.resolve('master'); // three checks, nothing moved
    const pushed = await remote.commit({ 'application.yml': 'a: 9\n' });
    assert.equal((await mirror.resolve('master')).commit, pushed, 'a push made before the request is seen');
    // This upstream's commands only: mirrors of the other tests live on (one retries its stopped server).
    const spawned = (await readFile(argvLog, 'utf8'))
      .split('\n')
      .slice(before - 1)
      .filter((line) => line.includes(http.url('config-repo.git')));
    assert.ok(!spawned.some((line) => line.includes('ls-remote')), spawned.join('\n'));
    assert.ok(
      spawned.some((line) => /^.*fetch .*127\.0\.0\.1/.test(line)),
      'the push was fetched by git',
    );
  });
});
