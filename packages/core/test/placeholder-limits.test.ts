// Placeholder expansion is bounded (issue #15): a `${p}${p}` bomb, deep nesting and long reference chains fail
// fast with an error naming the key and the file, instead of blocking the event loop or overflowing the stack.
// The hostile cases run in a worker with a generous deadline: on an unbounded resolver they run for minutes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PLACEHOLDER_LIMITS, PlaceholderLimitError, resolvePlaceholders } from '@confbus/core';
import { runWithDeadline } from '@confbus/testkit/deadline';

/** `p0: xx`, `p_i: ${p_{i-1}}${p_{i-1}}`: p_i expands to 2^(i+1) characters. */
function bomb(levels: number): Record<string, string> {
  const flat: Record<string, string> = { p0: 'xx' };
  for (let i = 1; i <= levels; i++) flat[`p${i}`] = `\${p${i - 1}}\${p${i - 1}}`;
  return flat;
}

describe('placeholder expansion limits', () => {
  it('rejects a 22-level placeholder bomb fast, naming the key and its file', async () => {
    const outcome = await runWithDeadline<{ code: string; message: string; key: string }>(
      `const { resolvePlaceholders } = await import('@confbus/core');
       const flat = { p0: 'xx' };
       for (let i = 1; i <= 22; i++) flat['p' + i] = '\${p' + (i - 1) + '}\${p' + (i - 1) + '}';
       try {
         resolvePlaceholders(flat, (key) => 'https://git.example/repo/bomb.yml');
         return { code: 'none', message: 'resolved', key: '' };
       } catch (error) {
         return { code: error.code, message: error.message, key: error.key };
       }`,
      20_000,
    );
    assert.ok(outcome.done, 'resolving the bomb was still running after 20 s');
    assert.equal(outcome.value.code, 'CONFBUS_CONFIG_LIMIT');
    assert.match(
      outcome.value.message,
      /^https:\/\/git\.example\/repo\/bomb\.yml: key 'p\d+': placeholders /,
    );
  });

  it('rejects nesting and reference chains deeper than maxDepth instead of overflowing the stack', () => {
    const nested = `${'${'.repeat(10_000)}x${'}'.repeat(10_000)}`;
    assert.throws(
      () => resolvePlaceholders({ x: 'value', deep: nested }, () => 'deep.yml'),
      (error: unknown) =>
        error instanceof PlaceholderLimitError &&
        error.key === 'deep' &&
        /deep\.yml: key 'deep': placeholders nest more than \d+ levels deep/.test(error.message),
    );
    const chain: Record<string, string> = { c0: 'end' };
    for (let i = 1; i <= 5000; i++) chain[`c${i}`] = `\${c${i - 1}}`;
    assert.throws(() => resolvePlaceholders(chain), PlaceholderLimitError);
    // Within the limit a chain still resolves.
    const short: Record<string, string> = { c0: 'end' };
    for (let i = 1; i <= PLACEHOLDER_LIMITS.maxDepth - 1; i++) short[`c${i}`] = `\${c${i - 1}}`;
    assert.equal(resolvePlaceholders(short)[`c${PLACEHOLDER_LIMITS.maxDepth - 1}`], 'end');
  });

  it('still expands what stays within the limits', () => {
    const resolved = resolvePlaceholders(bomb(10));
    assert.equal(resolved.p10, 'x'.repeat(2 ** 11));
    assert.equal(resolvePlaceholders({ a: 'A', b: '${a}-${missing:d}-\\${a}' }).b, 'A-d-${a}');
  });
});
