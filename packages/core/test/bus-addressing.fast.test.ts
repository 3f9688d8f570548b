import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createRefreshEvent,
  defaultBusId,
  isForSelf,
  isFromSelf,
  matchesServicePattern,
} from '../src/index.js';
import { guessServiceNames } from '../src/internal.js';
import {
  MAX_DESTINATION_PATTERN_LENGTH,
  MAX_DESTINATION_SEGMENTS,
} from '../src/bus-events/ant-path-matcher.js';
import { normalizeDestination } from '../src/bus-events/service-matcher.js';
import { runWithDeadline } from '@confbus/testkit/deadline';

describe('bus destinations', () => {
  it('normalises destinations as PathDestinationFactory does', () => {
    const table: [string | null | undefined, string][] = [
      [undefined, '**'],
      [null, '**'],
      ['**', '**'],
      ['foo', 'foo:**'],
      ['*', '*:**'],
      ['foo:**', 'foo:**'],
      ['customers:9000', 'customers:9000:**'],
      ['customers:9000:abc', 'customers:9000:abc'],
      ['app:dev:**', 'app:dev:**'],
    ];
    for (const [input, expected] of table) assert.equal(normalizeDestination(input), expected, String(input));
  });

  it('matches service ids with AntPathMatcher and ":" as separator', () => {
    const table: [string, string, boolean][] = [
      ['**', 'foo:8080:abc', true],
      ['foo:**', 'foo:8080:abc', true],
      ['foo:**', 'foo', true],
      ['foo:**', 'foobar:8080:abc', false],
      ['foo*:**', 'foobar:8080:abc', true],
      ['*:**', 'anything:8080:abc', true],
      ['customers:9000:**', 'customers:9000:abc', true],
      ['customers:9000:**', 'customers:9001:abc', false],
      ['customers:900?:**', 'customers:9001:abc', true],
      ['foo:*:abc', 'foo:8080:abc', true],
      ['foo:*:abc', 'foo:8080:x:abc', false],
      ['foo:**:abc', 'foo:8080:x:abc', true],
      ['foo:{port}:**', 'foo:8080:abc', true],
      ['foo:{port:\\d+}:**', 'foo:80a:abc', false],
      ['foo', 'foo', true],
      ['foo', 'foo:8080', false],
      ['app:dev:**', 'app:dev,db:8080:abc', false],
      ['a.b:**', 'axb:1', false],
    ];
    for (const [pattern, id, expected] of table) {
      assert.equal(matchesServicePattern(pattern, id), expected, `${pattern} vs ${id}`);
    }
  });

  it('decides isForSelf including config names and multi-profile ids', () => {
    const forDest = (d: string) => ({ ...createRefreshEvent('origin:1:x'), destinationService: d });
    const id = 'foo:8080:abc';
    assert.ok(isForSelf(forDest('**'), id));
    assert.ok(isForSelf(forDest(''), id));
    assert.ok(isForSelf(forDest(' '), id));
    assert.ok(isForSelf(forDest(normalizeDestination('foo')), id));
    assert.ok(!isForSelf(forDest(normalizeDestination('bar')), id));
    assert.ok(isForSelf(forDest(normalizeDestination('*')), id));
    assert.ok(isForSelf(forDest(normalizeDestination('foo:8080')), id));
    assert.ok(!isForSelf(forDest(normalizeDestination('foo:9000')), id));
    // spring.cloud.config.name entries are tried with the id's ":8080:abc" appended.
    assert.ok(isForSelf(forDest(normalizeDestination('shared')), id, ['shared', 'other']));
    assert.ok(!isForSelf(forDest(normalizeDestination('shared')), id, ['other']));
    // Multi-profile ids: tried once per single profile.
    const multi = 'app:dev,db:8080:abc';
    assert.ok(isForSelf(forDest('app:dev:**'), multi));
    assert.ok(isForSelf(forDest('app:db:**'), multi));
    assert.ok(isForSelf(forDest('app:**'), multi));
    assert.ok(!isForSelf(forDest('app:prod:**'), multi));
    assert.ok(isForSelf(forDest('shared:db:**'), multi, ['shared']));
  });

  it('decides isFromSelf by matching the origin against the bus id', () => {
    const from = (origin: string) => createRefreshEvent(origin);
    assert.ok(isFromSelf(from('foo:8080:abc'), 'foo:8080:abc'));
    assert.ok(!isFromSelf(from('foo:8080:abd'), 'foo:8080:abc'));
    assert.ok(isFromSelf(from('app:dev:8080:abc'), 'app:dev,db:8080:abc'));
  });

  it('builds the default bus id as app[:profiles]:port:random', () => {
    assert.equal(defaultBusId({ applicationName: 'foo', port: 9000, random: 'r' }), 'foo:9000:r');
    assert.equal(defaultBusId({ random: 'r' }), 'application:8080:r');
    assert.equal(
      defaultBusId({ applicationName: 'app', profiles: ['dev', 'db'], port: '8081', random: 'r' }),
      'app:dev,db:8081:r',
    );
    assert.match(defaultBusId({ applicationName: 'foo' }), /^foo:8080:[0-9a-f]{32}$/);
    assert.notEqual(defaultBusId({}), defaultBusId({}));
  });
});

describe('guessServiceNames (monitor, 3.1.5+ rules)', () => {
  it('follows the PropertyPathEndpointTests table', () => {
    const table: [string[], string[]][] = [
      [['foo.yml'], ['foo']],
      [['foo-local.yml'], ['foo-local', 'foo']],
      [['foo-local-dev.yml'], ['foo-local-dev', 'foo-local', 'foo']],
      [['application.yml'], ['*']],
      [['application-local.yml'], ['application-local', '*']],
      [
        ['/foo/bar.properties', '/application.properties'],
        ['bar', '*'],
      ],
      [['config\\win\\baz-dev.yml'], ['baz-dev', 'baz']],
      [
        ['foo.yml', 'foo-dev.yml'],
        ['foo', 'foo-dev'],
      ],
      [['noext'], ['noext']],
      [[], []],
    ];
    for (const [paths, expected] of table)
      assert.deepEqual(guessServiceNames(paths), expected, paths.join(','));
  });
});

describe('bus destinations from hostile senders', () => {
  const busId = 'sample:dev:8081:0123456789abcdef0123456789abcdef';

  it('matches backtracking-prone patterns in linear time (issue #15: `**:*********z` stalled nodes for seconds)', async () => {
    // On the regex-based matcher each extra `*` multiplied the time by ~4.5; 14 stars would run for hours.
    const patterns = [
      `**:${'*'.repeat(14)}z`,
      `**:${'*'.repeat(200)}z`,
      `${'*:'.repeat(30)}**:${'?*'.repeat(40)}z`,
      `**:{a}${'{b}*'.repeat(60)}z`,
      `${'**:'.repeat(60)}z`,
    ];
    const outcome = await runWithDeadline<boolean[]>(
      `const { matchesServicePattern } = await import('@confbus/core');
       return ${JSON.stringify(patterns)}.map((p) => matchesServicePattern(p, ${JSON.stringify(busId)}));`,
      20_000,
    );
    assert.ok(outcome.done, 'matching hostile destinations was still running after 20 s');
    assert.deepEqual(outcome.value, [false, false, false, false, false]);
  });

  it('keeps AntPathMatcher semantics for wildcards and variables, and never compiles a regex', () => {
    const table: [string, string, boolean][] = [
      [`**:${'*'.repeat(14)}f`, busId, true],
      ['sample:*:**', busId, true],
      ['sample:d?v:**', busId, true],
      ['sample:d*v*:**', busId, true],
      ['sample:{profile}:{port}:**', busId, true],
      ['sample:{profile}x:**', busId, false],
      ['sample:d{x}:**', busId, true],
      ['sample:{p:dev}:**', busId, false], // the tokenizer cuts `{p:dev}` in two (as in Spring)
      ['sample:{p:dev}:**', 'sample:{p:dev}:1', true],
      ['sample:{unclosed:**', 'sample:{unclosed:1', true],
      ['sample:(dev|prod):**', 'sample:(dev|prod):1', true], // regex syntax is literal
      ['sample:de.:**', busId, false],
    ];
    for (const [pattern, id, expected] of table) {
      assert.equal(matchesServicePattern(pattern, id), expected, `${pattern} vs ${id}`);
    }
  });

  it('addresses no one with a pattern beyond the length or segment caps', () => {
    assert.ok(matchesServicePattern(`${'**:'.repeat(MAX_DESTINATION_SEGMENTS - 1)}**`, busId));
    assert.ok(!matchesServicePattern(`${'**:'.repeat(MAX_DESTINATION_SEGMENTS)}**`, busId));
    assert.ok(!matchesServicePattern(`**:${'*'.repeat(MAX_DESTINATION_PATTERN_LENGTH)}`, busId));
  });

  it('never treats the origin as a pattern: an event "from **" is not from every node', () => {
    assert.ok(!isFromSelf(createRefreshEvent('**'), busId));
    assert.ok(!isFromSelf(createRefreshEvent('sample:*:8081:*'), busId));
    assert.ok(!isFromSelf(createRefreshEvent(`**:${'*'.repeat(20)}z`), busId));
    assert.ok(isFromSelf(createRefreshEvent(busId), busId));
  });
});
