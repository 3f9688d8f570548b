/** The child's environment from the configuration: prefix, allow-list, who wins, keys left out. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildChildEnvironment, environmentsDiffer } from '../../src/run/child-environment.js';

function entries(values: Record<string, string>) {
  return { keys: Object.keys(values), value: (key: string) => values[key] };
}

const defaults = { prefix: '', include: [], override: false };

describe('buildChildEnvironment', () => {
  it('exports every key under its Spring name beside the inherited variables', () => {
    const built = buildChildEnvironment(
      entries({ 'group.comment': 'hi', 'features[0]': 'search' }),
      { PATH: '/bin' },
      defaults,
    );
    assert.deepEqual(built.env, { PATH: '/bin', GROUP_COMMENT: 'hi', FEATURES_0: 'search' });
    assert.deepEqual(
      [...built.exported],
      [
        ['GROUP_COMMENT', 'group.comment'],
        ['FEATURES_0', 'features[0]'],
      ],
    );
  });

  it('lets an inherited variable win unless override is set', () => {
    const config = entries({ 'server.port': '8080' });
    assert.equal(buildChildEnvironment(config, { SERVER_PORT: '9000' }, defaults).env.SERVER_PORT, '9000');
    const overridden = buildChildEnvironment(
      config,
      { SERVER_PORT: '9000' },
      { ...defaults, override: true },
    );
    assert.equal(overridden.env.SERVER_PORT, '8080');
  });

  it('puts the prefix before each name', () => {
    const built = buildChildEnvironment(
      entries({ 'group.comment': 'hi' }),
      {},
      { ...defaults, prefix: 'APP_' },
    );
    assert.deepEqual(built.env, { APP_GROUP_COMMENT: 'hi' });
  });

  it('exports only allowed keys and what lies below them, matched relaxedly', () => {
    const built = buildChildEnvironment(
      entries({ 'group.comment': 'a', 'groups.x': 'b', 'features[0]': 'c', 'my-app.name': 'd', other: 'e' }),
      {},
      { ...defaults, include: ['group', 'features', 'myApp'] },
    );
    assert.deepEqual(Object.keys(built.env).sort(), ['FEATURES_0', 'GROUP_COMMENT', 'MYAPP_NAME']);
  });

  it('leaves out keys without a variable name and warns naming the key, never the value', () => {
    const built = buildChildEnvironment(
      entries({ 'map[a.b]': 's3cret', 'my-key': 'first', myKey: 'second', nul: 'a\0b' }),
      {},
      defaults,
    );
    assert.deepEqual(built.env, { MYKEY: 'first' });
    assert.equal(built.warnings.length, 3);
    assert.match(built.warnings[0]!, /'map\[a\.b\]' has no environment variable name/);
    assert.match(built.warnings[1]!, /'my-key' and 'myKey' both map to MYKEY: 'my-key' wins/);
    assert.match(built.warnings[2]!, /'nul' has a NUL character/);
    assert.ok(!built.warnings.join('\n').includes('s3cret'));
  });

  it('tells environments apart by every variable', () => {
    assert.equal(environmentsDiffer({ A: '1' }, { A: '1' }), false);
    assert.equal(environmentsDiffer({ A: '1' }, { A: '2' }), true);
    assert.equal(environmentsDiffer({ A: '1' }, { A: '1', B: '' }), true);
  });
});
