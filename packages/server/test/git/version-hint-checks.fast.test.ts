// Version hints the mirror cannot satisfy (issue #15): anyone can send X-Config-Min-Version with a random commit
// id, so hints start at most one upstream check per interval; hints arriving sooner share the next check, made
// when the interval ends, and are then answered with what is there.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { LabelResolver } from '../../src/git/label-resolver.js';
import type { UpstreamChecks } from '../../src/git/upstream-checks.js';
import { type HintTimer, VersionHintChecks } from '../../src/git/version-hint-checks.js';

const INTERVAL_MS = 1000;
const randomCommit = (): string => randomBytes(20).toString('hex');

/** A timer that stands still until the test moves it. */
class ManualTimer implements HintTimer {
  private time = 0;
  private readonly tasks: Array<{ at: number; task: () => void }> = [];

  now(): number {
    return this.time;
  }

  after(ms: number, task: () => void): () => void {
    const entry = { at: this.time + ms, task };
    this.tasks.push(entry);
    return () => this.tasks.splice(this.tasks.indexOf(entry), 1);
  }

  advance(ms: number): void {
    this.time += ms;
    for (const entry of this.tasks.filter((each) => each.at <= this.time)) {
      this.tasks.splice(this.tasks.indexOf(entry), 1);
      entry.task();
    }
  }
}

function setUp() {
  const head = randomCommit();
  let checks = 0;
  const labels = {
    headLabel: (label: string) => label,
    isHead: (_label: string, commit: string) => commit === head,
  } as unknown as LabelResolver;
  const upstream = {
    stale: false,
    requestFresh: () => {
      checks++;
      return Promise.resolve({ changed: false, refs: 1, stale: false });
    },
    outageStarted: () => new Promise<void>(() => undefined),
  } as unknown as UpstreamChecks;
  const timer = new ManualTimer();
  const hints = new VersionHintChecks(labels, upstream, { intervalMs: INTERVAL_MS, timer });
  return { hints, timer, head, checks: () => checks };
}

/** Whether a promise has settled by the time the event loop has had a turn. */
async function settled(promise: Promise<unknown> | undefined): Promise<boolean> {
  let done = promise === undefined;
  void promise?.then(() => (done = true));
  await nextTurn();
  return done;
}

describe('version hints the mirror cannot satisfy', () => {
  it('start at most one upstream check per interval; later ones share the next, made when it ends', async () => {
    const { hints, timer, checks } = setUp();
    await hints.freshenFor('master', randomCommit());
    assert.equal(checks(), 1, 'the first unknown hint checks at once');
    // A client cycling random hints, one request after another.
    const waiting = Array.from({ length: 20 }, () => hints.freshenFor('master', randomCommit()));
    assert.equal(checks(), 1, 'no more checks within the interval');
    assert.deepEqual(
      await Promise.all(waiting.map(settled)),
      waiting.map(() => false),
      'they wait for the next check',
    );
    timer.advance(INTERVAL_MS);
    await Promise.all(waiting);
    assert.equal(checks(), 2, 'one check, made when the interval ended, answered them all');
    // Later, past another interval, an unknown hint checks at once again.
    timer.advance(INTERVAL_MS);
    await hints.freshenFor('master', randomCommit());
    assert.equal(checks(), 3);
  });

  it('costs nothing for a hint at the head, or one whose check was made already', async () => {
    const { hints, head, checks } = setUp();
    assert.equal(hints.freshenFor('master', head), undefined);
    const hint = randomCommit();
    await hints.freshenFor('master', hint);
    await hints.freshenFor('master', hint);
    assert.equal(checks(), 1);
  });

  it('releases the requests waiting for the next check when the mirror closes', async () => {
    const { hints } = setUp();
    await hints.freshenFor('master', randomCommit());
    const waiting = hints.freshenFor('master', randomCommit());
    assert.equal(await settled(waiting), false);
    hints.close();
    assert.equal(await settled(waiting), true);
  });
});
