/**
 * Spring's PatternMatchUtils.simpleMatch, matched by the linear automaton the bus destinations use: the same
 * answers as Spring's recursive algorithm (ported below as the reference), in work bounded by pattern × text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type MatchWork, antMatch, simpleMatch } from '@confbus/core/internal';
import { picker } from '@confbus/testkit/fuzz';

/** PatternMatchUtils.simpleMatch as Spring writes it (polynomial: it recurses on every occurrence of a part). */
function springSimpleMatch(pattern: string, text: string): boolean {
  const first = pattern.indexOf('*');
  if (first === -1) return pattern === text;
  if (first === 0) {
    if (pattern.length === 1) return true;
    const next = pattern.indexOf('*', 1);
    if (next === -1) return text.endsWith(pattern.slice(1));
    const part = pattern.slice(1, next);
    if (part === '') return springSimpleMatch(pattern.slice(next), text);
    for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) {
      if (springSimpleMatch(pattern.slice(next), text.slice(at + part.length))) return true;
    }
    return false;
  }
  return (
    text.length >= first &&
    pattern.startsWith(text.slice(0, first)) &&
    springSimpleMatch(pattern.slice(first), text.slice(first))
  );
}

describe('simpleMatch', () => {
  it("gives Spring's answers on 20,000 generated pattern/text pairs", () => {
    const { pick, int } = picker(0x51a7e);
    const alphabet = ['a', 'b', '-', '/', '*', '.', 'é', '\u{1F4A5}'];
    const word = (max: number, withStar: boolean): string =>
      Array.from({ length: int(0, max) }, () => pick(withStar ? alphabet : alphabet.slice(0, -4))).join('');
    for (let i = 0; i < 20_000; i++) {
      const pattern = word(7, true);
      const text = word(9, false);
      assert.equal(simpleMatch(pattern, text), springSimpleMatch(pattern, text), `${pattern} vs ${text}`);
    }
  });

  it('costs at most (pattern + 1) × (text + 1) token tests, whatever the pattern', () => {
    for (const pattern of ['*-*-*/prod', '*a*a*a*a*a*a*a*b', '**********z', '*']) {
      for (const length of [1_000, 10_000, 100_000]) {
        const work: MatchWork = { steps: 0 };
        assert.equal(simpleMatch(pattern, 'a-'.repeat(length / 2), work), pattern === '*');
        assert.ok(
          work.steps <= (pattern.length + 1) * (length + 1),
          `${pattern}: ${work.steps} steps for ${length} characters`,
        );
      }
    }
  });

  it('shares its automaton with the bus destinations, which stay Ant-style', () => {
    assert.equal(antMatch('app:**', 'app:dev:8080'), true);
    assert.equal(antMatch('app:*', 'app:dev:8080'), false);
    assert.equal(simpleMatch('app:*', 'app:dev:8080'), true, 'simpleMatch has no separator');
  });
});
