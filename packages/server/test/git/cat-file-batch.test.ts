// The long-lived cat-file reader with large blobs (issue 23, item 4): a blob arriving in many pipe chunks is
// joined once, not copied again per chunk, and a blob over the read's limit is refused by the size git announces,
// its bytes dropped as they arrive. Real git; the copying is counted through Buffer.concat, not timed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CatFileBatch } from '../../src/git/cat-file-batch.js';
import type { GitMirror } from '../../src/git/index.js';
import { FileTooLargeError } from '../../src/environment/config-repository.js';
import { testMirror } from './helpers.js';

const BIG = 9 << 20;

/** Bytes Buffer.concat copied while `action` ran. */
async function bytesConcatenated(action: () => Promise<void>): Promise<number> {
  let copied = 0;
  const original = Buffer.concat.bind(Buffer);
  const spy = mock.method(Buffer, 'concat', (list: readonly Uint8Array[], totalLength?: number) => {
    const joined = original(list, totalLength);
    copied += joined.length;
    return joined;
  });
  try {
    await action();
  } finally {
    spy.mock.restore();
  }
  return copied;
}

describe('CatFileBatch with large blobs', () => {
  let remote: GitRemote;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let mirror: GitMirror;
  let reader: CatFileBatch;
  let commit: string;
  const big = randomBytes(BIG);

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir('confbus-cat-file-');
    await remote.commit({ 'big.yml': big, 'small.yml': 'a: 1\n' });
    mirror = testMirror({ uri: remote.url, basedir: join(temp.path, 'mirror') });
    commit = (await mirror.resolve(null)).commit;
    reader = new CatFileBatch(mirror.gitDir);
  });
  after(async () => {
    await reader?.close();
    await mirror?.close();
    await remote?.remove();
    await temp?.remove();
  });

  it('joins the chunks of a 9 MB blob once', async () => {
    let content: Buffer | undefined;
    const copied = await bytesConcatenated(async () => {
      content = (await reader.read(`${commit}:big.yml`))?.content;
    });
    assert.ok(content?.equals(big), 'the whole blob, intact');
    // One join of the content (and the header's few bytes); per-chunk concatenation copied ~70x the blob.
    assert.ok(copied <= BIG + 4096, `copied ${copied} bytes for a blob of ${BIG}`);
  });

  it('refuses a blob over the limit by its announced size, holding none of it, and stays in step', async () => {
    let answers: Array<Awaited<ReturnType<CatFileBatch['read']>>> = [];
    const copied = await bytesConcatenated(async () => {
      // Pipelined: the skipped blob's bytes must not be taken for the next answer.
      answers = await Promise.all([
        reader.read(`${commit}:big.yml`, 1 << 20),
        reader.read(`${commit}:small.yml`, 1 << 20),
        reader.read(`${commit}:big.yml`, 0),
        reader.read(`${commit}:missing.yml`, 0),
      ]);
    });
    const [refused, small, refusedAgain, missing] = answers;
    assert.equal(refused?.size, BIG);
    assert.equal(refused?.content, undefined);
    assert.equal(refusedAgain?.content, undefined);
    assert.equal(small?.content?.toString(), 'a: 1\n');
    assert.equal(missing, undefined);
    assert.ok(copied < 64 * 1024, `copied ${copied} bytes while refusing`);
    assert.ok(
      (await reader.read(`${commit}:big.yml`))?.content?.equals(big),
      'and reads it whole when allowed',
    );
  });

  it('the mirror throws FileTooLargeError naming the size, before reading', async () => {
    await assert.rejects(
      mirror.readFile(commit, 'big.yml', 1 << 20),
      (error: unknown) =>
        error instanceof FileTooLargeError && error.bytes === BIG && error.path === 'big.yml',
    );
    assert.equal((await mirror.readFile(commit, 'small.yml', 1 << 20))?.toString(), 'a: 1\n');
    assert.equal((await mirror.readFile(commit, 'big.yml'))?.length, BIG);
  });
});
