// Resolving labels (branch, tag, commit, abbreviation, feature/x, default fallback) and reading files,
// against a real bare repository over file://.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitMirror, type GitMirrorOptions, LabelNotFoundError } from '../../src/git/index.js';
import { captureLogger } from './helpers.js';

describe('GitMirror labels and files (file://)', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let mirror: GitMirror;
  let first: string;
  let second: string;
  let feature: string;
  let tagged: string;
  const binary = Buffer.from([0, 1, 2, 10, 255, 10, 0, 13, 10]);

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
    first = await remote.commit({ 'application.yml': 'a: 1\n', 'bin/blob.dat': binary });
    second = await remote.commit({ 'application.yml': 'a: 2\n', 'foo/foo.yml': 'x: y\n' }, { tag: 'v1.0' });
    tagged = second;
    feature = await remote.commit({ 'feature.yml': 'f: true\n' }, { branch: 'feature/x' });
    mirror = new GitMirror({
      uri: remote.url,
      basedir: `${base.path}/mirror`,
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger: captureLogger(),
    });
    await mirror.start();
    await mirror.start(); // idempotent
  });

  after(async () => {
    await mirror?.close();
    await remote?.remove();
    await base?.remove();
  });

  it('resolves the default label, branches, annotated tags and feature/x', async () => {
    assert.deepEqual(await mirror.resolve(null), { label: 'master', commit: second, stale: false });
    assert.equal((await mirror.resolve('master')).commit, second);
    assert.deepEqual(await mirror.resolve('v1.0'), { label: 'v1.0', commit: tagged, stale: false });
    assert.deepEqual(await mirror.resolve('feature/x'), {
      label: 'feature/x',
      commit: feature,
      stale: false,
    });
  });

  it('resolves full and abbreviated commit ids that exist in the mirror', async () => {
    assert.equal((await mirror.resolve(first)).commit, first);
    assert.equal((await mirror.resolve(first.slice(0, 7))).commit, first);
    assert.equal((await mirror.resolve(first.slice(0, 12).toUpperCase())).commit, first);
    await assert.rejects(mirror.resolve('0000000'), LabelNotFoundError);
    await assert.rejects(mirror.resolve('0'.repeat(40)), LabelNotFoundError);
  });

  it('rejects unknown labels with CONFBUS_NO_SUCH_LABEL', async () => {
    await assert.rejects(mirror.resolve('nope'), (e: unknown) => {
      assert.ok(e instanceof LabelNotFoundError);
      assert.equal(e.code, 'CONFBUS_NO_SUCH_LABEL');
      assert.match(e.message, /nope/);
      return true;
    });
  });

  it('lists blob paths per commit and reads text, binary and missing files', async () => {
    assert.deepEqual([...(await mirror.listFiles(first))].sort(), ['application.yml', 'bin/blob.dat']);
    assert.deepEqual([...(await mirror.listFiles(second))].sort(), [
      'application.yml',
      'bin/blob.dat',
      'foo/foo.yml',
    ]);
    assert.equal((await mirror.readFile(first, 'application.yml'))?.toString(), 'a: 1\n');
    assert.equal((await mirror.readFile(second, 'application.yml'))?.toString(), 'a: 2\n');
    assert.deepEqual(await mirror.readFile(first, 'bin/blob.dat'), binary);
    assert.equal(await mirror.readFile(first, 'foo/foo.yml'), undefined);
    assert.equal(await mirror.readFile(first, 'bin'), undefined, 'a directory is not a file');
    assert.equal(await mirror.readFile(first, './application.yml'), undefined);
    assert.equal(await mirror.readFile(first, 'a\nb'), undefined);
    // The reader survives all of the above.
    assert.equal((await mirror.readFile(second, '/foo/foo.yml'))?.toString(), 'x: y\n');
  });

  it('serves many parallel reads, mixing hits, misses and binary, through one reader', async () => {
    const reads = Array.from({ length: 300 }, (_, i) => {
      const kind = i % 3;
      const path = kind === 0 ? 'application.yml' : kind === 1 ? 'bin/blob.dat' : `missing-${i}.yml`;
      return mirror.readFile(second, path).then((content) => ({ kind, content }));
    });
    for (const { kind, content } of await Promise.all(reads)) {
      if (kind === 0) assert.equal(content?.toString(), 'a: 2\n');
      else if (kind === 1) assert.deepEqual(content, binary);
      else assert.equal(content, undefined);
    }
  });

  it('rejects non-commit ids in listFiles/readFile', async () => {
    await assert.rejects(mirror.listFiles('master'), TypeError);
    await assert.rejects(mirror.readFile('--output=/tmp/x', 'a'), TypeError);
  });
});

describe('GitMirror default label, try-master-branch and delete-untracked-branches (as Spring)', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  const mirrors: GitMirror[] = [];
  let n = 0;
  const open = (options: Partial<GitMirrorOptions> = {}) => {
    const mirror = new GitMirror({
      uri: remote.path, // a plain local path works too
      basedir: join(base.path, `m${n++}`),
      defaultLabel: 'main',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger: captureLogger(),
      ...options,
    });
    mirrors.push(mirror);
    return mirror;
  };

  before(async () => {
    remote = await createGitRemote(); // its first branch is master; there is no main
    base = await makeTempDir();
  });
  after(async () => {
    await Promise.all(mirrors.map((m) => m.close()));
    await remote?.remove();
    await base?.remove();
  });

  it("'main' (by default or asked for) serves 'master' when there is no main; not with try-master-branch=false", async () => {
    const master = await remote.commit({ 'application.yml': 'a: master\n' });
    const mirror = open();
    assert.deepEqual(await mirror.resolve(null), { label: 'master', commit: master, stale: false });
    assert.equal((await mirror.resolve('main')).label, 'master');
    await assert.rejects(mirror.resolve('develop'), LabelNotFoundError);
    await assert.rejects(open({ tryMasterBranch: false }).resolve(null), LabelNotFoundError);
    // No fallback the other way: default-label master on a repository without master is a missing label.
    const other = await createGitRemote('main-only');
    try {
      await other.commit({ 'application.yml': 'a: main\n' }, { branch: 'main' });
      await assert.rejects(
        open({ uri: other.path, defaultLabel: 'master' }).resolve(null),
        LabelNotFoundError,
      );
    } finally {
      await other.remove();
    }
  });

  it('a branch deleted upstream keeps being served; with delete-untracked-branches it goes', async () => {
    const feature = await remote.commit({ 'application.yml': 'a: feature\n' }, { branch: 'feature' });
    const keeping = open();
    const deleting = open({ deleteUntrackedBranches: true });
    assert.equal((await keeping.resolve('feature')).commit, feature);
    assert.equal((await deleting.resolve('feature')).commit, feature);
    const checksBefore = keeping.health().fetches;

    await remote.git('push', '--quiet', 'origin', '--delete', 'feature');
    assert.equal((await keeping.resolve('feature')).commit, feature);
    await keeping.resolve('feature');
    assert.equal(
      keeping.health().fetches,
      checksBefore,
      'a branch only we have does not cause a fetch per check',
    );
    await assert.rejects(deleting.resolve('feature'), LabelNotFoundError);
    assert.ok((await deleting.resolve('master')).commit, 'the other branches stay');
  });
});
