import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigParseError } from '../src/index.js';
import { parseProperties } from '../src/codecs/properties-codec.js';

describe('.properties codec (java.util.Properties syntax)', () => {
  it('parses the Java-tricky cases', () => {
    const text = [
      '# hash comment',
      '! bang comment',
      'colon:value',
      'space value',
      'equals = value',
      'key\\ with\\=escapes = v',
      'unicode=\\u00e9\\uD83D\\uDE00',
      'tab=a\\tb',
      'continued = first \\',
      '    second',
      'unknown=\\q',
      'trailing=x\\\\',
      'dup=1',
      'dup=2',
      '   indented=yes',
      'empty=',
      '',
    ].join('\n');
    const [document] = parseProperties(text, 'app.properties');
    assert.deepEqual(Object.fromEntries(document?.properties ?? []), {
      colon: 'value',
      space: 'value',
      equals: 'value',
      'key with=escapes': 'v',
      unicode: 'é😀',
      tab: 'a\tb',
      continued: 'first second',
      unknown: 'q',
      trailing: 'x\\',
      dup: '2',
      indented: 'yes',
      empty: '',
    });
  });

  it('keeps every value a string', () => {
    const [document] = parseProperties('a=on\nb=12\nc=true\n', 'x.properties');
    assert.deepEqual(Object.fromEntries(document?.properties ?? []), { a: 'on', b: '12', c: 'true' });
  });

  it('takes UTF-8 text as given (documented difference from Boot ISO-8859-1)', () => {
    const [document] = parseProperties('greeting=héllo 中\n', 'x.properties');
    assert.deepEqual(Object.fromEntries(document?.properties ?? []), { greeting: 'héllo 中' });
  });

  it('splits documents on #--- and !---, skipping empty ones', () => {
    const text = 'a=1\n#---\nspring.config.activate.on-profile=dev\nb=2\n!---\n#---\nc=3\n';
    const documents = parseProperties(text, 'app.properties');
    assert.deepEqual(
      documents.map((d) => [d.index, d.count, Object.fromEntries(d.properties)]),
      [
        [0, 3, { a: '1' }],
        [1, 3, { 'spring.config.activate.on-profile': 'dev', b: '2' }],
        [2, 3, { c: '3' }],
      ],
    );
    assert.deepEqual(documents[1]?.activation?.text, ['dev']);
  });

  it('does not split on look-alike separators', () => {
    const text = 'a=1\n #---\nb=x\\\n#---\nc=3\n# comment\n#---\nd=4\n#----\ne=5\n';
    const documents = parseProperties(text, 'app.properties');
    assert.equal(documents.length, 1);
    assert.deepEqual(Object.fromEntries(documents[0]?.properties ?? []), {
      a: '1',
      b: 'x#---',
      c: '3',
      d: '4',
      e: '5',
    });
  });

  it('reports a malformed \\u escape with document and line', () => {
    assert.throws(
      () => parseProperties('a=1\n#---\nb=2\nc=\\u00zz\n', 'bad.properties'),
      (error: unknown) =>
        error instanceof ConfigParseError &&
        error.document === 2 &&
        error.line === 4 &&
        error.message.startsWith('bad.properties: document 2, line 4: '),
    );
  });
});
