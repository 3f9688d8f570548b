// basedir: a repository of the same remote is adopted (a Spring working clone, `git clone --mirror`); anything
// else is refused by open() - before any network - with CONFBUS_GIT_BASEDIR naming the setting, and left as is.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { isConfbusError } from '@confbus/core';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitMirror } from '../../src/git/index.js';
import { sameRemote } from '../../src/git/basedir.js';
import { runGit } from '../../src/git/git-process.js';
import { captureLogger, type CaptureLogger } from './helpers.js';

const exec = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  exec('git', args, {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });

describe('GitMirror basedir', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let head: string;
  const mirrors: GitMirror[] = [];
  const open = (basedir: string, logger: CaptureLogger = captureLogger(), uri = remote.url) => {
    const mirror = new GitMirror({
      uri,
      basedir,
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger,
    });
    mirrors.push(mirror);
    return mirror;
  };
  const refused = async (mirror: GitMirror, pattern: RegExp): Promise<void> => {
    await assert.rejects(mirror.open(), (e: unknown) => {
      assert.ok(isConfbusError(e) && e.code === 'CONFBUS_GIT_BASEDIR', String(e));
      assert.match(e.message, /spring\.cloud\.config\.server\.git\.basedir \(/);
      assert.match(e.message, pattern);
      assert.match(
        e.message,
        /Point spring\.cloud\.config\.server\.git\.basedir at an empty or missing directory/,
      );
      return true;
    });
    // start() (and so every request) gives the same answer, without trying the network.
    await assert.rejects(mirror.start(), /CONFBUS_GIT_BASEDIR|spring\.cloud\.config\.server\.git\.basedir/);
    assert.equal(mirror.health().checks, 0);
  };

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
    head = await remote.commit({ 'application.yml': 'a: 1\n' });
  });
  after(async () => {
    await Promise.all(mirrors.map((m) => m.close()));
    await remote?.remove();
    await base?.remove();
  });

  it('a directory with other files is refused and left untouched', async () => {
    const dir = join(base.path, 'files');
    await mkdir(dir);
    await writeFile(join(dir, 'notes.txt'), 'mine\n');
    await refused(open(dir), /is not empty and is not a Git repository/);
    assert.deepEqual(await readdir(dir), ['notes.txt']);
    assert.equal(await readFile(join(dir, 'notes.txt'), 'utf8'), 'mine\n');
  });

  it('a plain directory inside another repository is refused (the enclosing repository is not used)', async () => {
    const outer = join(base.path, 'outer');
    await mkdir(join(outer, 'inner'), { recursive: true });
    await git(outer, 'init', '--quiet');
    await writeFile(join(outer, 'inner', 'x.txt'), 'x\n');
    await refused(open(join(outer, 'inner')), /is not a Git repository/);
  });

  it('a repository without an origin is refused', async () => {
    const dir = join(base.path, 'no-origin');
    await git(base.path, 'init', '--quiet', dir);
    await refused(open(dir), /neither a confbus mirror nor a clone/);
  });

  it('a clone of another remote is refused, naming both', async () => {
    const dir = join(base.path, 'other-clone');
    await git(base.path, 'clone', '--quiet', '--mirror', remote.url, dir);
    await refused(
      open(dir, captureLogger(), 'file:///elsewhere/repo.git'),
      /holds a Git repository of file:\/\/\/.*config-repo\.git, not of file:\/\/\/elsewhere\/repo\.git/,
    );
  });

  it('the working clone Spring Cloud Config leaves in its basedir is adopted', async () => {
    const dir = join(base.path, 'spring-clone');
    await git(base.path, 'clone', '--quiet', remote.url, dir);
    const logger = captureLogger();
    const mirror = open(dir, logger);
    await mirror.open();
    const pushed = await remote.commit({ 'application.yml': 'a: 2\n' });
    assert.notEqual(pushed, head);
    const revision = await mirror.resolve('master');
    assert.equal(revision.commit, pushed);
    assert.equal((await mirror.readFile(revision.commit, 'application.yml'))?.toString(), 'a: 2\n');
    assert.ok(logger.entries.some((e) => e.msg === 'Adopted the Git repository in basedir'));
  });

  it('a `git clone --mirror` of the same remote (written with a trailing .git/) is adopted', async () => {
    const dir = join(base.path, 'mirror-clone');
    await git(base.path, 'clone', '--quiet', '--mirror', `${remote.url}/`, dir);
    const mirror = open(dir);
    assert.equal((await mirror.resolve('master')).commit, (await remote.git('rev-parse', 'HEAD')).trim());
  });

  it('an empty basedir stays empty until first use, and git run there never finds an enclosing repository', async () => {
    const outer = join(base.path, 'outer-lazy');
    await mkdir(outer);
    await git(outer, 'init', '--quiet');
    const dir = join(outer, 'mirror');
    const mirror = open(dir);
    await mirror.open();
    // A configured repository nobody asked for costs no git process: the folder exists, nothing in it.
    assert.deepEqual(await readdir(dir), []);
    await assert.rejects(runGit(['rev-parse', '--git-dir'], { cwd: dir }), /not a git repository/);
    assert.equal((await mirror.resolve('master')).commit, (await remote.git('rev-parse', 'HEAD')).trim());
    assert.ok((await readdir(dir)).includes('HEAD'), 'the first use made the bare mirror');
    assert.equal((await git(outer, 'for-each-ref')).stdout, '', 'the enclosing repository is untouched');
  });

  describe('a first clone that fails leaves nothing behind (Spring: shouldDeleteBaseDirWhenCloneFails)', () => {
    const missingUpstream = () => pathToFileURL(join(base.path, 'no-such-upstream.git')).href;

    it('removes the basedir it created, keeps the folders that were there, and retries from scratch', async () => {
      const parent = join(base.path, 'failed-parent');
      await mkdir(parent);
      await writeFile(join(parent, 'keep.txt'), 'not ours\n');
      const dir = join(parent, 'new', 'mirror');
      const mirror = open(dir, captureLogger(), missingUpstream());
      await assert.rejects(mirror.start(), /CONFBUS_REPOSITORY_UNAVAILABLE|Cannot reach|no-such-upstream/);
      await assert.rejects(stat(dir), { code: 'ENOENT' }, 'the basedir the clone created is gone');
      assert.deepEqual((await readdir(parent)).sort(), ['keep.txt', 'new'], 'nothing else was touched');
      assert.equal(await readFile(join(parent, 'keep.txt'), 'utf8'), 'not ours\n');
      // A second failure is the same failure (not a half-made mirror in the way) and cleans up the same.
      await assert.rejects(mirror.start(), /CONFBUS_REPOSITORY_UNAVAILABLE|Cannot reach|no-such-upstream/);
      await assert.rejects(stat(dir), { code: 'ENOENT' });
    });

    it('empties an empty basedir it was given, and keeps the folder itself', async () => {
      const dir = join(base.path, 'failed-empty');
      await mkdir(dir, { mode: 0o750 });
      const mirror = open(dir, captureLogger(), missingUpstream());
      await mirror.open();
      await assert.rejects(mirror.start());
      assert.deepEqual(await readdir(dir), []);
      assert.equal((await stat(dir)).mode & 0o777, 0o750, "the operator's folder keeps its mode");
    });

    it('the same mirror clones once the upstream exists', async () => {
      const dir = join(base.path, 'failed-then-ok');
      const later = join(base.path, 'later-upstream.git');
      const mirror = open(dir, captureLogger(), pathToFileURL(later).href);
      await assert.rejects(mirror.start());
      await git(base.path, 'clone', '--quiet', '--bare', remote.url, later);
      await mirror.start();
      assert.equal((await mirror.resolve('master')).commit, (await remote.git('rev-parse', 'HEAD')).trim());
    });

    it('never removes a repository it adopted, whatever the failure', async () => {
      const gone = await createGitRemote('gone');
      await gone.commit({ 'application.yml': 'gone: 1\n' });
      const dir = join(base.path, 'adopted-clone');
      await git(base.path, 'clone', '--quiet', gone.url, dir);
      await gone.remove();
      const mirror = open(dir, captureLogger(), gone.url);
      await assert.rejects(mirror.start());
      assert.ok((await readdir(dir)).includes('application.yml'), 'the working clone is untouched');
      assert.ok((await readdir(join(dir, '.git'))).includes('HEAD'));
    });
  });

  it('sameRemote ignores credentials, a trailing slash and a .git suffix only', () => {
    assert.ok(sameRemote('https://u:p@host/org/repo.git', 'https://host/org/repo'));
    assert.ok(sameRemote('file:///srv/repo.git/', 'file:///srv/repo.git'));
    assert.ok(!sameRemote('https://host/org/repo', 'https://host/org/other'));
    assert.ok(!sameRemote('https://host/org/repo', 'ssh://host/org/repo'));
  });
});
