// The version hint (a commit a refresh event announced, X-Config-Min-Version): a mirror whose label already
// points at it answers without an upstream check, whatever refresh-rate says; one that does not makes one check,
// shared by every request carrying that hint; a commit known elsewhere in the mirror does not count.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitMirror, type GitMirrorOptions } from '../../src/git/index.js';
import { captureLogger } from './helpers.js';

describe('GitMirror version hint', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  const mirrors: GitMirror[] = [];
  let n = 0;

  const open = async (overrides: Partial<GitMirrorOptions> = {}) => {
    const mirror = new GitMirror({
      uri: remote.url,
      basedir: `${base.path}/m${n++}`,
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger: captureLogger(),
      ...overrides,
    });
    mirrors.push(mirror);
    await mirror.start();
    return mirror;
  };

  before(async () => {
    remote = await createGitRemote();
    base = await makeTempDir();
    await remote.commit({ 'application.yml': 'v: 0\n' });
  });

  after(async () => {
    await Promise.all(mirrors.map((m) => m.close()));
    await remote?.remove();
    await base?.remove();
  });

  it("refresh-rate 0: a hint equal to the label's head costs no upstream check", async () => {
    const mirror = await open();
    const head = (await mirror.resolve(null)).commit;
    const checks = mirror.health().checks;
    const answers = await Promise.all(Array.from({ length: 20 }, () => mirror.resolve(null, head)));
    assert.ok(answers.every((a) => a.commit === head));
    assert.equal(mirror.health().checks, checks, 'no check for requests hinting the current head');
    // Without the hint, refresh-rate 0 checks as before.
    await mirror.resolve(null);
    assert.equal(mirror.health().checks, checks + 1);
  });

  it('cached mode: a hint the mirror has not seen makes one check for a whole burst, then serves it', async () => {
    const mirror = await open({ refreshRateSeconds: 3600 });
    const before = (await mirror.resolve(null)).commit;
    const pushed = await remote.commit({ 'application.yml': 'v: 1\n' });
    assert.equal((await mirror.resolve(null)).commit, before, 'without a hint the cached state is served');
    const checks = mirror.health().checks;
    const answers = await Promise.all(Array.from({ length: 50 }, () => mirror.resolve(null, pushed)));
    assert.ok(
      answers.every((a) => a.commit === pushed),
      'every hinted request sees the pushed commit',
    );
    assert.equal(mirror.health().checks, checks + 1, 'one upstream check for the burst');
    await Promise.all(Array.from({ length: 10 }, () => mirror.resolve(null, pushed)));
    assert.equal(mirror.health().checks, checks + 1, 'later requests with that hint need no check');
  });

  it("a commit present elsewhere in the mirror is not taken for the label's head", async () => {
    const mirror = await open({ refreshRateSeconds: 3600 });
    const feature = await remote.commit({ 'application.yml': 'v: feature\n' }, { branch: 'feature' });
    await mirror.refreshNow();
    assert.equal((await mirror.resolve('feature')).commit, feature);
    // The feature commit becomes master's head upstream (a fast-forward push of an existing commit).
    await remote.git('push', '--quiet', 'origin', 'feature:master');
    const merged = feature;
    const checks = mirror.health().checks;
    assert.equal((await mirror.resolve(null, merged)).commit, merged);
    assert.equal(mirror.health().checks, checks + 1, 'the hint made the mirror check upstream');
  });

  it('is case-insensitive and leaves Spring-shaped requests (no hint) alone', async () => {
    const mirror = await open();
    const head = (await mirror.resolve(null)).commit;
    const checks = mirror.health().checks;
    assert.equal((await mirror.resolve(null, head.toUpperCase())).commit, head);
    assert.equal(mirror.health().checks, checks);
  });

  it("a commit upstream does not have either: one check, then the label's head is served", async () => {
    const mirror = await open({ refreshRateSeconds: 3600 });
    const head = (await mirror.resolve(null)).commit;
    const checks = mirror.health().checks;
    const answer = await mirror.resolve(null, 'f'.repeat(40));
    assert.equal(answer.commit, head);
    assert.equal(mirror.health().checks, checks + 1);
  });
});
