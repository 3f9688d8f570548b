// Placeholder expansion is bounded (issue #15): a `${p}${p}` bomb, deep nesting and long reference chains fail
// fast with an error naming the key and the file, instead of blocking the event loop or overflowing the stack.
// The hostile cases run in a worker with a generous deadline: on an unbounded resolver they run for minutes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  PLACEHOLDER_LIMITS,
  PlaceholderLimitError,
  renderEnvironment,
  renderingPlaceholders,
  type PropertySource,
} from '@confbus/core';
import { runWithDeadline } from '@confbus/testkit/deadline';

/** `p0: xx`, `p_i: ${p_{i-1}}${p_{i-1}}`: p_i expands to 2^(i+1) characters. */
function bomb(levels: number): Record<string, string> {
  const flat: Record<string, string> = { p0: 'xx' };
  for (let i = 1; i <= levels; i++) flat[`p${i}`] = `\${p${i - 1}}\${p${i - 1}}`;
  return flat;
}

const one = (name: string, source: Record<string, string>): PropertySource[] => [
  { name, source: new Map(Object.entries(source)) },
];

describe('placeholder expansion limits', () => {
  it('rejects a 22-level placeholder bomb fast, naming the key and its file', async () => {
    const outcome = await runWithDeadline<{ code: string; message: string; key: string }>(
      `const { renderEnvironment } = await import('@confbus/core');
       const source = new Map([['p0', 'xx']]);
       for (let i = 1; i <= 22; i++) source.set('p' + i, '\${p' + (i - 1) + '}\${p' + (i - 1) + '}');
       const sources = [{ name: 'https://git.example/repo/bomb.yml', source }];
       try {
         renderEnvironment(sources, 'properties', { resolvePlaceholders: true, name: 'bomb-default.properties' });
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
      () =>
        renderingPlaceholders(one('deep.yml', { x: 'value' }), 'deep-default.yml').inText(`deep: ${nested}`),
      (error: unknown) =>
        error instanceof PlaceholderLimitError &&
        /^deep-default\.yml: key '\$\{\$\{.*…': placeholders nest more than \d+ levels deep/.test(
          error.message,
        ),
    );
    const chain: Record<string, string> = { c0: 'end' };
    for (let i = 1; i <= 5000; i++) chain[`c${i}`] = `\${c${i - 1}}`;
    assert.throws(
      () =>
        renderEnvironment(one('chain.yml', chain), 'yml', { resolvePlaceholders: true, name: 'chain.yml' }),
      (error: unknown) =>
        error instanceof PlaceholderLimitError && /^chain\.yml: key 'c\d+'/.test(error.message),
    );
    // Within the limit a chain still resolves.
    const short: Record<string, string> = { c0: 'end' };
    for (let i = 1; i <= PLACEHOLDER_LIMITS.maxDepth - 1; i++) short[`c${i}`] = `\${c${i - 1}}`;
    const resolved = renderingPlaceholders(one('short.yml', short), 'short.yml');
    assert.equal(resolved.inText(`\${c${PLACEHOLDER_LIMITS.maxDepth - 1}}`), 'end');
  });

  it('bounds each placeholder of a text, not the text: a large rendering resolves', () => {
    const source: Record<string, string> = { value: 'v'.repeat(1000) };
    for (let i = 0; i < 1000; i++) source[`k${i}`] = '${value}';
    const text = renderEnvironment(one('large.yml', source), 'properties', {
      resolvePlaceholders: true,
      name: 'large-default.properties',
    });
    assert.ok(text.length > PLACEHOLDER_LIMITS.maxValueLength, `only ${text.length} characters`);
    assert.ok(!text.includes('${'));
  });

  it('still expands what stays within the limits', () => {
    const resolved = renderingPlaceholders(one('bomb.yml', bomb(10)), 'bomb.yml');
    assert.equal(resolved.inText('${p10}'), 'x'.repeat(2 ** 11));
    assert.equal(resolved.inValue('${ p10 }', 'x'), 'x'.repeat(2 ** 11));
  });
});
