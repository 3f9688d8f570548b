import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JavaDouble, javaDoubleText, parseJson, parseJsonExactIntegers, writeJson } from '@confbus/core';

describe("Java's Double.toString", () => {
  it('lays digits out as Java does: plain from 10^-3 to 10^7, else d.dddE±n, at least one fraction digit', () => {
    const cases: Array<[number, string]> = [
      [1000, '1000.0'],
      [1, '1.0'],
      [0.1, '0.1'],
      [3.14, '3.14'],
      [0.0015, '0.0015'],
      [0.001, '0.001'],
      [0.000999, '9.99E-4'],
      [9999999, '9999999.0'],
      [1e7, '1.0E7'],
      [12345678.9, '1.23456789E7'],
      [1e20, '1.0E20'],
      [1.5e-7, '1.5E-7'],
      [-2.5, '-2.5'],
      [123.456, '123.456'],
      [Number.MAX_VALUE, '1.7976931348623157E308'],
      // One digit would do; Java takes the closest of one or two digits.
      [Number.MIN_VALUE, '4.9E-324'],
      [2e23, '2.0E23'],
      [0, '0.0'],
      [-0, '-0.0'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [Number.NEGATIVE_INFINITY, '-Infinity'],
    ];
    for (const [value, text] of cases) assert.equal(javaDoubleText(value), text, String(value));
    assert.equal(String(new JavaDouble(1000)), '1000.0');
    assert.equal(Number(new JavaDouble(1000)), 1000);
  });

  it('reads back as the same double', () => {
    for (let i = 0; i < 2000; i++) {
      const value = (Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 40 - 20);
      assert.equal(Number(javaDoubleText(value)), value, String(value));
    }
  });
});

describe('JSON as Jackson writes it', () => {
  it('writes bigints and JavaDoubles as Jackson writes BigInteger and Double', () => {
    assert.equal(
      writeJson({
        big: 100000000000000000000n,
        double: new JavaDouble(1000),
        nan: new JavaDouble(Number.NaN),
        inf: new JavaDouble(Number.NEGATIVE_INFINITY),
        list: [1, 'two', true, null, undefined],
        skipped: undefined,
      }),
      '{"big":100000000000000000000,"double":1000.0,"nan":"NaN","inf":"-Infinity","list":[1,"two",true,null,null]}',
    );
    assert.throws(() => JSON.stringify({ double: new JavaDouble(1) }), TypeError);
  });

  it('escapes control characters with upper-case hex, as Jackson does, and nothing else differently', () => {
    const text = 'a\u001bb\\u001bc"d\n\u2028é/';
    assert.equal(writeJson(text), '"a\\u001Bb\\\\u001bc\\"d\\n\u2028é/"');
    assert.equal(JSON.parse(writeJson(text)), text);
  });

  it('indents as JSON.stringify does', () => {
    const value = { a: [1, { b: 2 }], c: {}, d: [], e: 'x' };
    assert.equal(writeJson(value, 2), JSON.stringify(value, null, 2));
  });
});

describe('reading JSON without losing digits', () => {
  it('hands each number literal to the caller', () => {
    const literals: string[] = [];
    const value = parseJson(
      ' {"a": [1000.0, 1e3, -0, 100000000000000000000], "__proto__": {"x": "\\u00e9\\n"}} ',
      (literal) => {
        literals.push(literal);
        return literal;
      },
    );
    assert.deepEqual(literals, ['1000.0', '1e3', '-0', '100000000000000000000']);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(
      JSON.stringify(value),
      JSON.stringify(
        JSON.parse('{"a":["1000.0","1e3","-0","100000000000000000000"],"__proto__":{"x":"é\\n"}}'),
      ),
    );
  });

  it('rejects what JSON.parse rejects', () => {
    for (const bad of [
      '',
      '{',
      '[1,]',
      '{"a":1,}',
      '01',
      '1 2',
      '"unterminated',
      '{"a" 1}',
      'tru',
      '"\u0001"',
    ]) {
      assert.throws(() => parseJson(bad, Number), SyntaxError, bad);
      assert.throws(() => JSON.parse(bad), SyntaxError, bad);
    }
  });

  it('gives integers beyond 2^53 as bigints, everything else as JSON.parse does', () => {
    assert.deepEqual(
      parseJsonExactIntegers(
        '{"big":12345678901234567891,"n":-9007199254740993,"safe":9007199254740991,"f":1000.0,"s":"12345678901234567891"}',
      ),
      {
        big: 12345678901234567891n,
        n: -9007199254740993n,
        safe: 9007199254740991,
        f: 1000,
        s: '12345678901234567891',
      },
    );
    assert.deepEqual(parseJsonExactIntegers('{"a":[1,2.5]}'), { a: [1, 2.5] });
  });
});
