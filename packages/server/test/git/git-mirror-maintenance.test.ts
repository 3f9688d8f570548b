// Maintenance: fetches add packs; past the limit the mirror repacks in the background, and reads of old and
// new commits keep working through the long-lived cat-file reader while it does.
import assert from 'node:assert/strict';
import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { waitFor } from '@confbus/testkit/confbus-processes';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import type { GitMirror } from '../../src/git/index.js';
import { testMirror } from './helpers.js';

describe('GitMirror maintenance', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let mirror: GitMirror;

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
    await remote.commit({ 'application.yml': 'v: 0\n' });
    mirror = testMirror({ uri: remote.url, basedir: join(base.path, 'mirror'), gcAutoPackLimit: 3 });
  });

  after(async () => {
    await mirror?.close();
    await remote?.remove();
    await base?.remove();
  });

  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );
  const packFiles = async () =>
    (await readdir(join(base.path, 'mirror', 'objects', 'pack'))).filter((f) => f.endsWith('.pack'));
  const packs = async () => (await packFiles()).length;

  it('repacks once fetches pile up packs, and keeps reading every commit', async () => {
    const commits: string[] = [];
    // Every pack seen after a fetch: more than the limit (3) proves fetches piled packs up past it.
    const seen = new Set<string>();
    const first = await mirror.resolve(null);
    commits.push(first.commit);
    for (let i = 1; i <= 8; i++) {
      // Over 100 new objects, so the fetch keeps them as a pack (git unpacks smaller fetches into loose objects).
      const files: Record<string, string> = { 'application.yml': `v: ${i}\n` };
      for (let f = 0; f < 120; f++) files[`batch-${i}/file-${f}.yml`] = `n: ${i}-${f}\n`;
      await remote.commit(files);
      commits.push((await mirror.resolve(null)).commit);
      for (const pack of await packFiles()) seen.add(pack);
      // Reads must work whatever the background repack is doing.
      assert.equal((await mirror.readFile(commits[i] as string, 'application.yml'))?.toString(), `v: ${i}\n`);
    }
    assert.ok(seen.size > 3, `fetches left ${seen.size} packs, not more than the limit of 3`);
    await waitFor('the background repack to bring the pack count down', async () => (await packs()) <= 3, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    // The detached gc holds gc.pid while it runs: let it finish before the temp dir is removed.
    await waitFor(
      'the background gc to finish',
      async () => !(await exists(join(base.path, 'mirror', 'gc.pid'))),
      {
        timeoutMs: 30_000,
        intervalMs: 100,
      },
    );
    for (const [i, commit] of commits.entries()) {
      assert.equal((await mirror.readFile(commit, 'application.yml'))?.toString(), `v: ${i}\n`);
    }
  });
});
