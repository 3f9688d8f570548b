/** Spring's EnvironmentPrefixHelperTests, case for case, plus the quirks kept on purpose. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addPrefixes, encryptorKeys, stripPrefixes } from '../src/encryption/cipher-prefixes.js';
import { carriesKeySecret } from '../src/encryption/cipher-text.js';

describe('cipher text prefixes (EnvironmentPrefixHelper)', () => {
  it('adds and strips prefixes', () => {
    assert.equal(addPrefixes(new Map([['bar', 'spam']]), 'foo'), '{bar:spam}foo');
    assert.equal(addPrefixes(new Map(), 'foo'), 'foo');
    assert.equal(
      addPrefixes(
        new Map([
          ['name', 'a'],
          ['profiles', 'b'],
          ['key', 'k'],
        ]),
        'x',
      ),
      '{key:k}x',
    );
    assert.equal(stripPrefixes('foo'), 'foo');
    assert.equal(stripPrefixes('{key:foo}foo'), 'foo');
    assert.equal(stripPrefixes('{plain}{key:foo}foo'), '{key:foo}foo');
    assert.equal(stripPrefixes('textwith}brac{es'), 'textwith}brac{es');
    assert.equal(
      stripPrefixes('{key:foo}{name:bar}textwith}brac{es{and}prefix'),
      'textwith}brac{es{and}prefix',
    );
  });

  it('reads the lookup keys, the caller naming the application and profiles', () => {
    assert.deepEqual(
      [...encryptorKeys('foo', 'bar', 'spam')],
      [
        ['name', 'foo'],
        ['profiles', 'bar'],
      ],
    );
    const keys = encryptorKeys('foo', 'bar', '{key:mykey}foo');
    assert.equal(keys.size, 3);
    assert.equal(keys.get('key'), 'mykey');
    const escaped = encryptorKeys('foo', 'bar', '{key:mykey}{plain}{foo:bar}foo');
    assert.equal(escaped.size, 3);
    assert.equal(escaped.get('key'), 'mykey');
    assert.deepEqual(Object.fromEntries(encryptorKeys('a', 'b', '{key:k}{secret:s:with:colons}AQ==')), {
      name: 'a',
      profiles: 'b',
      key: 'k',
      secret: 's:with:colons',
    });
    // {name:...} in the text never overrides the caller's name; a bare {key} is an empty value.
    assert.equal(encryptorKeys('app', 'dev', '{name:other}x').get('name'), 'app');
    assert.equal(encryptorKeys('app', 'dev', '{key}x').get('key'), '');
  });

  it('tells a {cipher} value that carries a key password in clear', () => {
    assert.equal(carriesKeySecret('{cipher}{key:k}{secret:pw}AQB0'), true);
    assert.equal(carriesKeySecret('{cipher}{secret:pw}ab12'), true);
    assert.equal(carriesKeySecret('{cipher}{key:k}AQB0'), false);
    assert.equal(carriesKeySecret('{cipher}ab12'), false);
    // Only a {cipher} value, and only a prefix: {plain} ends the prefixes.
    assert.equal(carriesKeySecret('{secret:pw}ab12'), false);
    assert.equal(carriesKeySecret('{cipher}{plain}{secret:pw}ab12'), false);
    assert.equal(carriesKeySecret(42), false);
  });
});
