import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeSpringSegment,
  parseApplications,
  parseProfiles,
  validateApplicationName,
  validateProfile,
  validateProfiles,
} from '@confbus/core';

describe('request names', () => {
  it('decodes (_) to /', () => {
    assert.equal(decodeSpringSegment('label(_)spam'), 'label/spam');
    assert.equal(decodeSpringSegment('a(_)b(_)c'), 'a/b/c');
  });

  it('splits comma lists; no profile means default', () => {
    assert.deepEqual(parseApplications('foo,bar'), ['foo', 'bar']);
    assert.deepEqual(parseProfiles('dev,db'), ['dev', 'db']);
    assert.deepEqual(parseProfiles(''), ['default']);
    assert.deepEqual(parseProfiles(' , '), ['default']);
  });

  it('accepts names with letters, digits and -_.+@ inside', () => {
    for (const name of ['foo', 'foo-bar', 'a.b_c+d@e', 'x', '9lives']) {
      assert.equal(validateApplicationName(name), undefined, name);
      assert.equal(validateProfile(name), undefined, name);
    }
  });

  it('rejects unsafe names with a message naming the problem', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['a..b', /'\.\.'/],
      ['-dev', /starting and ending/],
      ['dev.', /starting and ending/],
      ['de v', /letters, digits/],
      ['dev\n', /control/],
      ['x'.repeat(201), /longer than 200/],
    ];
    for (const [name, message] of cases) {
      assert.match(validateProfile(name) ?? '', message, JSON.stringify(name));
      assert.match(validateApplicationName(name) ?? '', message, JSON.stringify(name));
    }
    assert.match(validateApplicationName('a b') ?? '', /^Invalid application name "a b"/);
    assert.match(validateProfile('a/b') ?? '', /'\/' is not allowed/);
    assert.match(validateProfile('../etc') ?? '', /'\/' is not allowed/);
  });

  it("accepts an application path from Spring's (_), and names in any script", () => {
    assert.equal(validateApplicationName(decodeSpringSegment('foo(_)spam')), undefined);
    assert.equal(validateApplicationName('a/b/c,d'), undefined);
    for (const [name, message] of [
      ['../etc', /'\.\.' is not allowed \(in "\.\.\/etc"\)/],
      ['/etc', /must not be empty/],
      ['foo/', /must not be empty/],
      ['foo//bar', /must not be empty/],
    ] as const) {
      assert.match(validateApplicationName(name) ?? '', message, name);
    }
    for (const name of ['entwicklung-ü', 'produção', '開発', 'ﾃｽﾄ', 'q\u0301']) {
      assert.equal(validateProfile(name), undefined, name);
      assert.equal(validateApplicationName(name), undefined, name);
    }
    assert.match(validateProfile('dev\u00a0x') ?? '', /letters, digits/, 'no-break space');
  });

  it('accepts comma lists when every entry is valid', () => {
    assert.equal(validateApplicationName('foo,bar'), undefined);
    assert.equal(validateProfile('dev,db'), undefined);
    assert.match(validateProfile('dev,../x') ?? '', /Invalid profile "..\/x"/);
    assert.match(validateApplicationName(',') ?? '', /empty/);
    assert.match(validateProfile(Array.from({ length: 33 }, (_, i) => `p${i}`).join(',')) ?? '', /Too many/);
  });

  it('limits the number of profiles', () => {
    assert.equal(validateProfiles(Array.from({ length: 32 }, (_, i) => `p${i}`)), undefined);
    assert.match(validateProfiles(Array.from({ length: 33 }, (_, i) => `p${i}`)) ?? '', /Too many profiles/);
    assert.match(validateProfiles(['ok', 'b@d!']) ?? '', /Invalid profile/);
  });
});
