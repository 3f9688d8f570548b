/** Spring's EnvironmentPrefixHelperTests, case for case, plus the quirks kept on purpose. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runWithDeadline } from '@confbus/testkit/deadline';
import { picker } from '@confbus/testkit/fuzz';
import {
  addPrefixes,
  encryptorKeys,
  stripPrefixes,
  withoutFirstPrefix,
} from '../src/encryption/cipher-prefixes.js';
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

// Spring's regular expressions, as the prefixes were read with before: the oracle the scans must agree with.
const ANY = '[^\\n\\r\\u0085\\u2028\\u2029]';
const ORACLE_NAME = new RegExp(`\\{name:${ANY}*\\}`);
const ORACLE_PROFILES = new RegExp(`\\{profiles:${ANY}*\\}`);
const ORACLE_LEADING = new RegExp(`^(?:\\{${ANY}*?:${ANY}*?\\})+`);

describe('cipher text prefixes, read in linear time', () => {
  it('agree with Spring’s regular expressions on 20,000 seeded texts', () => {
    const pick = picker(23);
    const parts = [
      '{',
      '}',
      ':',
      '{name:',
      '{profiles:',
      '{key:',
      '{plain}',
      'a',
      'n',
      '\n',
      '\r',
      '\u2028',
      ' ',
      'x}',
    ];
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from({ length: pick.int(0, 12) }, () => pick.pick(parts)).join('');
      const stripped = text.includes('}')
        ? text.includes('{plain}')
          ? text.slice(text.indexOf('{plain}') + '{plain}'.length)
          : text.replace(ORACLE_LEADING, '')
        : text;
      assert.equal(stripPrefixes(text), stripped, JSON.stringify(text));
      assert.equal(withoutFirstPrefix(text, 'name'), text.replace(ORACLE_NAME, ''), JSON.stringify(text));
      assert.equal(
        withoutFirstPrefix(text, 'profiles'),
        text.replace(ORACLE_PROFILES, ''),
        JSON.stringify(text),
      );
    }
  });

  it('hostile texts (96 K characters of `{name:`, a `{` and colons) take linear time', async () => {
    const module = new URL('../dist/encryption/cipher-prefixes.js', import.meta.url).href;
    const outcome = await runWithDeadline<number[]>(
      `const { encryptorKeys, stripPrefixes } = await import(${JSON.stringify(module)});
       const texts = ['{name:'.repeat(16000), '{profiles:'.repeat(10000), '{' + ':'.repeat(200000),
         '{a:b}'.repeat(20000) + '{' + ':'.repeat(100000) + '}'];
       return texts.map((t) => encryptorKeys('app', 'dev', t).size + stripPrefixes(t).length);`,
      20_000,
    );
    assert.ok(outcome.done, 'reading hostile prefixes was still running after 20 s');
    assert.equal(outcome.value.length, 4);
  });
});
