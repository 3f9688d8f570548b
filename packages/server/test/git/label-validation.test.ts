// Hostile and odd labels: validateLabel rules, and GitMirror rejecting them before any git runs.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { type GitMirror, InvalidLabelError, LabelNotFoundError, validateLabel } from '../../src/git/index.js';
import { testMirror } from './helpers.js';

const HOSTILE = [
  '--upload-pack=touch /tmp/x',
  '-x',
  '--output=/tmp/y',
  '..',
  'a/../b',
  'a..b',
  'HEAD@{1}',
  '@{-1}',
  '@',
  'a\0b',
  'a\nb',
  'a b',
  'a~1',
  'a^',
  'a:b',
  'a?',
  'a*',
  'a[b',
  'a\\b',
  '/a',
  'a/',
  'a//b',
  '.hidden',
  'a/.b',
  'a.lock',
  'a.',
  'x'.repeat(256),
];

describe('validateLabel', () => {
  it('accepts ordinary branch, tag, nested and commit labels', () => {
    for (const label of [
      'master',
      'main',
      'v1.0.0',
      'feature/x',
      'release/2024.1',
      'a-b_c',
      'deadbeef',
      'x'.repeat(255),
    ]) {
      assert.equal(validateLabel(label), undefined, label);
    }
  });

  it('rejects every hostile label with a message', () => {
    for (const label of HOSTILE) assert.equal(typeof validateLabel(label), 'string', JSON.stringify(label));
  });
});

describe('GitMirror with hostile labels', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let mirror: GitMirror;
  let marker: { path: string; remove: () => Promise<void> };

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
    marker = await makeTempDir();
    await remote.commit({ 'application.yml': 'a: 1\n' });
    mirror = testMirror({ uri: remote.url, basedir: join(base.path, 'mirror') });
    await mirror.start();
  });
  after(async () => {
    await mirror?.close();
    await remote?.remove();
    await base?.remove();
    await marker?.remove();
  });

  it('rejects them with CONFBUS_INVALID_LABEL, runs no check, and creates nothing', async () => {
    const target = join(marker.path, 'pwned');
    const labels = [...HOSTILE, `--upload-pack=touch ${target}`, `--output=${target}`];
    const checks = mirror.health().checks;
    const refsBefore = await readdir(join(base.path, 'mirror', 'refs', 'heads'));
    for (const label of labels) {
      await assert.rejects(mirror.resolve(label), (e: unknown) => {
        assert.ok(e instanceof InvalidLabelError, JSON.stringify(label));
        assert.equal(e.code, 'CONFBUS_INVALID_LABEL');
        return true;
      });
    }
    assert.equal(mirror.health().checks, checks, 'invalid labels never reach git');
    assert.equal(existsSync(target), false);
    assert.deepEqual(await readdir(marker.path), []);
    assert.deepEqual(await readdir(join(base.path, 'mirror', 'refs', 'heads')), refsBefore);
  });

  it('treats legal but odd labels as plain names', async () => {
    await assert.rejects(mirror.resolve('HEAD'), LabelNotFoundError);
    await assert.rejects(mirror.resolve('refs/heads/master'), LabelNotFoundError);
  });
});
