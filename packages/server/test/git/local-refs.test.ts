// The refs view after a fetch, built from the upstream's listing and the cat-file reader (no for-each-ref),
// must equal what a full `for-each-ref` load of the same mirror gives: moved and new branches, lightweight
// and annotated tags, a tag moved to another commit, and tags of a tree and of a blob (left out).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CatFileBatch } from '../../src/git/cat-file-batch.js';
import type { GitMirror } from '../../src/git/index.js';
import { LocalRefs } from '../../src/git/local-refs.js';
import { parseLsRemote } from '../../src/git/refs.js';
import { MirrorGit } from '../../src/git/mirror-git.js';
import { testMirror } from './helpers.js';

const exec = promisify(execFile);

describe('LocalRefs.applyFetched', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let mirror: GitMirror;
  const readers: CatFileBatch[] = [];

  const refsOf = (gitDir: string) => {
    const reader = new CatFileBatch(gitDir);
    readers.push(reader);
    return new LocalRefs(new MirrorGit(gitDir, []), reader);
  };

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
    await remote.commit({ 'application.yml': 'a: 1\n' }, { tag: 'v1' });
    await remote.commit({ 'other.yml': 'o: 1\n' }, { branch: 'other' });
    await remote.git('tag', 'light', 'master');
    await remote.git('push', '--quiet', 'origin', 'refs/tags/light');
    mirror = testMirror({ uri: remote.url, basedir: join(base.path, 'mirror') });
    await mirror.resolve(null);
  });

  after(async () => {
    await Promise.all(readers.map((r) => r.close()));
    await mirror?.close();
    await remote?.remove();
    await base?.remove();
  });

  it('gives the same branches, tags and raw refs as a full for-each-ref load', async () => {
    const gitDir = join(base.path, 'mirror');
    const incremental = refsOf(gitDir);
    await incremental.load();

    // Moves: master forward, a new branch, a new annotated tag, a lightweight tag moved, tags of a tree and a
    // blob (not commits: left out of `tags`, kept in `raw`), the branch `other` forced back onto master.
    await remote.commit({ 'application.yml': 'a: 2\n' }, { tag: 'v2' });
    await remote.commit({ 'new.yml': 'n: 1\n' }, { branch: 'feature/new' });
    await remote.git('checkout', '--quiet', 'master');
    await remote.git('tag', '-f', 'light', 'master');
    await remote.git('tag', '-a', '-m', 'a tree', 'tree-tag', 'master^{tree}');
    await remote.git('tag', 'blob-tag', 'master:application.yml');
    await remote.git('push', '--quiet', '--force', 'origin', 'master:other', 'refs/tags/*');
    await mirror.refreshNow();

    const listed = parseLsRemote(
      (await exec('git', ['ls-remote', '--heads', '--tags', '--refs', remote.url])).stdout,
    );
    const applied = await incremental.applyFetched(listed);
    const full = await refsOf(gitDir).load();

    assert.deepEqual(applied.raw, full.raw);
    assert.deepEqual(applied.branches, full.branches);
    assert.deepEqual(applied.tags, full.tags);
    assert.equal(applied.tags.get('v2'), applied.branches.get('master'), 'the annotated tag is peeled');
    assert.equal(applied.tags.has('tree-tag'), false);
    assert.equal(applied.tags.has('blob-tag'), false);
    assert.equal(applied.branches.get('other'), applied.branches.get('master'));
  });
});
