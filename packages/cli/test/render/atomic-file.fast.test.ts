/** Replacing a file atomically: new content whole, mode kept or set, the old file untouched on failure. */
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import { writeFileAtomically } from '../../src/render/atomic-file.js';

const temps: TempDir[] = [];
async function dir(): Promise<string> {
  const temp = await makeTempDir('confbus-atomic-');
  temps.push(temp);
  return temp.path;
}

describe('writeFileAtomically', () => {
  after(() => Promise.all(temps.map((t) => t.remove())));

  it('writes a new file readable by its owner only, and leaves no temporary file', async () => {
    const path = join(await dir(), 'app.conf');
    await writeFileAtomically(path, 'one\n');
    assert.equal(await readFile(path, 'utf8'), 'one\n');
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(join(path, '..')), ['app.conf']);
  });

  it("keeps an existing file's mode unless one is given", async () => {
    const path = join(await dir(), 'app.conf');
    await writeFile(path, 'old');
    await chmod(path, 0o640);
    await writeFileAtomically(path, 'new');
    assert.equal((await stat(path)).mode & 0o777, 0o640);
    await writeFileAtomically(path, 'newer', 0o644);
    assert.equal((await stat(path)).mode & 0o777, 0o644);
    assert.equal(await readFile(path, 'utf8'), 'newer');
  });

  it('replaces the file by rename: a reader holding the old one still reads it whole', async () => {
    const path = join(await dir(), 'app.conf');
    await writeFileAtomically(path, 'old content');
    const before = await stat(path);
    await writeFileAtomically(path, 'new content');
    assert.notEqual((await stat(path)).ino, before.ino);
  });

  it('leaves the target as it was and no temporary file behind when the rename fails', async () => {
    const parent = await dir();
    const path = join(parent, 'app.conf');
    // A directory in the file's place: the temporary file is written, then the rename over it fails.
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'kept');
    await assert.rejects(writeFileAtomically(path, 'new'), /EISDIR|ENOTEMPTY|EEXIST/);
    assert.deepEqual(await readdir(parent), ['app.conf']);
    assert.equal(await readFile(join(path, 'inside'), 'utf8'), 'kept');
  });
});
