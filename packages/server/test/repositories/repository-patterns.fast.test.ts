/** Spring's pattern rules for repos.<name>.pattern (PatternMatchingJGitEnvironmentRepository). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MatchWork } from '@confbus/core/internal';
import { RepositoryPatterns } from '../../src/repositories/repository-patterns.js';

describe('repository patterns', () => {
  it('a pattern without a profile matches every profile', () => {
    const patterns = new RepositoryPatterns(['simple']);
    assert.equal(patterns.matches('simple', ['dev']), true);
    assert.equal(patterns.matches('simple', ['default']), true);
    assert.equal(patterns.matches('simpler', ['dev']), false);
  });

  it('wildcards match any characters, and some requested profile suffices', () => {
    const patterns = new RepositoryPatterns(['local*', '*/qa']);
    assert.equal(patterns.matches('localhost', ['dev']), true);
    assert.equal(patterns.matches('anything', ['dev', 'qa']), true);
    assert.equal(patterns.matches('anything', ['dev']), false);
  });

  it('a one-profile pattern accepts requests naming more profiles after it, as Spring does', () => {
    const patterns = new RepositoryPatterns(['foo/dev']);
    assert.equal(patterns.accepts('foo', 'dev,db'), true);
    assert.equal(patterns.accepts('foo', 'db,dev'), false, 'Spring declines: the list must start with dev');
    assert.equal(patterns.matches('foo', ['db', 'dev']), true);
  });

  it('treats regular-expression characters literally', () => {
    const patterns = new RepositoryPatterns(['a.b', 'x(y)']);
    assert.equal(patterns.matches('a.b', ['dev']), true);
    assert.equal(patterns.matches('axb', ['dev']), false);
    assert.equal(patterns.matches('x(y)', ['dev']), true);
  });

  it('matches a hostile application name in work linear in its length (issue 23: 3 s for 1,790 characters)', () => {
    const patterns = new RepositoryPatterns(['*-*-*/prod']);
    // Dashes everywhere and no "/prod" at the end: a backtracking matcher tries every split of the dashes.
    const hostile = (length: number): string => 'a-'.repeat(length / 2);
    const work = (length: number): number => {
      const counter: MatchWork = { steps: 0 };
      assert.equal(patterns.matches(hostile(length), ['dev'], counter), false);
      assert.equal(patterns.matches(`${hostile(length)}x`, ['prod'], counter), true);
      return counter.steps;
    };
    // Normalised to `*-*-*/prod` and `*-*-*/prod,*`: at most (tokens + 1) × (characters + 1) steps each.
    const bound = (length: number) => 2 * 2 * (13 + 1) * (length + 'x/prod'.length + 1);
    const short = work(1790);
    assert.ok(short > 0, 'the work was counted');
    assert.ok(short <= bound(1790), `${short} steps for 1,790 characters`);
    const long = work(17_900);
    assert.ok(long <= bound(17_900), `${long} steps for 17,900 characters`);
    assert.ok(long < short * 11, `ten times the input costs ${(long / short).toFixed(1)} times the work`);
  });

  it("answers as Spring's simpleMatch: * across slashes, everything else literal, case-sensitive", () => {
    const patterns = new RepositoryPatterns(['team-*/p*d', 'exact']);
    assert.equal(patterns.matches('team-a/b', ['prod']), true, '* spans a slash of a (_) name');
    assert.equal(patterns.matches('team-', ['pd']), true, '* matches nothing too');
    assert.equal(patterns.matches('Team-a', ['prod']), false);
    assert.equal(patterns.matches('exact', ['anything']), true);
    assert.equal(patterns.matches('exact2', ['anything']), false);
  });
});
