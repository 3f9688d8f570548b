import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigParseError, JavaDouble, parseConfigFile } from '../src/index.js';
import { parseYaml } from '../src/codecs/yaml-codec.js';

function props(text: string): Record<string, unknown> {
  const [document] = parseYaml(text, 'test.yml');
  assert.ok(document);
  return Object.fromEntries(document.properties);
}

describe('YAML codec (SnakeYAML parity)', () => {
  it('uses exactly SnakeYAML booleans: on/off/yes/no but not y/n', () => {
    assert.deepEqual(props('a: on\nb: Off\nc: yes\nd: NO\ne: y\nf: n\ng: True\nh: "on"\n'), {
      a: true,
      b: false,
      c: true,
      d: false,
      e: 'y',
      f: 'n',
      g: true,
      h: 'on',
    });
  });

  it('reads YAML 1.1 numbers: octal, sexagesimal, hex, binary, underscores; floats as Java Doubles', () => {
    assert.deepEqual(
      props('a: 012\nb: 1:20\nc: 0x1F\nd: 0b101\ne: 1_000\nf: 3.5\ng: 1e3\nh: -7\ni: 190:20:30\nj: 09\n'),
      {
        a: 10,
        b: 80,
        c: 31,
        d: 5,
        e: 1000,
        f: new JavaDouble(3.5),
        g: new JavaDouble(1000),
        h: -7,
        i: 685230,
        // Not an octal integer, so SnakeYAML's FLOAT pattern takes it: the Double 9.0.
        j: new JavaDouble(9),
      },
    );
    const floats = props('inf: .inf\nminus: -.Inf\nnan: .NaN\nzero: -0.0\nint: -0\n');
    assert.deepEqual(floats, {
      inf: new JavaDouble(Number.POSITIVE_INFINITY),
      minus: new JavaDouble(Number.NEGATIVE_INFINITY),
      nan: new JavaDouble(Number.NaN),
      zero: new JavaDouble(-0),
      int: 0,
    });
    assert.deepEqual(Object.values(floats).map(String), ['Infinity', '-Infinity', 'NaN', '-0.0', '0']);
  });

  it('keeps integers beyond 2^53 exact, as bigints (Java Long and BigInteger)', () => {
    assert.deepEqual(props('big: 12345678901234567890\nlong: -9007199254740993\nsafe: 9007199254740991\n'), {
      big: 12345678901234567890n,
      long: -9007199254740993n,
      safe: 9007199254740991,
    });
  });

  it('names float and integer map keys as Java prints them', () => {
    assert.deepEqual(props('m:\n  1.0: a\n  1e3: b\n  1: c\n'), {
      'm[1.0]': 'a',
      'm[1000.0]': 'b',
      'm[1]': 'c',
    });
  });

  it('leaves timestamps as strings', () => {
    assert.deepEqual(props('d: 2001-12-14\nt: 2001-12-14t21:59:43.10-05:00\n'), {
      d: '2001-12-14',
      t: '2001-12-14t21:59:43.10-05:00',
    });
  });

  it('turns null into "" and an empty list into "", drops empty maps', () => {
    assert.deepEqual(props('a: ~\nb:\nc: null\nd: []\ne: {}\n'), { a: '', b: '', c: '', d: '' });
  });

  it('flattens maps and lists the Spring way', () => {
    assert.deepEqual(props('a:\n  b:\n  - c\n  - x: 1\n    y: [2, 3]\n'), {
      'a.b[0]': 'c',
      'a.b[1].x': 1,
      'a.b[1].y[0]': 2,
      'a.b[1].y[1]': 3,
    });
    assert.deepEqual(props('1: a\non: b\nmap:\n  "[a.b]": c\n'), {
      '[1]': 'a',
      '[true]': 'b',
      'map[a.b]': 'c',
    });
    assert.deepEqual(props('just text\n'), { document: 'just text' });
  });

  it('applies merge keys, explicit keys overriding merged ones', () => {
    assert.deepEqual(props('base: &b {x: 1, y: 2}\nchild:\n  <<: *b\n  y: 3\n'), {
      'base.x': 1,
      'base.y': 2,
      'child.x': 1,
      'child.y': 3,
    });
  });

  it('rejects duplicate keys with document, line and column', () => {
    const error = catchError(() => parseYaml('a: 1\n---\nb:\n  c: 1\n  c: 2\n', 'sample-dev.yml'));
    assert.ok(error instanceof ConfigParseError);
    assert.equal(error.code, 'CONFBUS_CONFIG_PARSE');
    assert.equal(error.file, 'sample-dev.yml');
    assert.equal(error.document, 2);
    assert.equal(error.line, 5);
    assert.equal(error.column, 3);
    assert.equal(
      error.message,
      'sample-dev.yml: document 2, line 5, column 3: Map keys must be unique ("c")',
    );
  });

  it('compares keys by resolved value, as SnakeYAML does', () => {
    const error = catchError(() => parseYaml('x:\n  1: a\n  0x1: b\n', 'ints.yml'));
    assert.ok(error instanceof ConfigParseError);
    assert.equal(error.message, 'ints.yml: document 1, line 3, column 3: Map keys must be unique ("0x1")');
  });

  it('allows many merges of one anchor (legitimate alias use)', () => {
    const lines = ['base: &b {x: 1, y: 2}'];
    for (let i = 0; i < 300; i++) lines.push(`s${i}:`, '  <<: *b', `  n: ${i}`);
    const properties = props(`${lines.join('\n')}\n`);
    assert.equal(properties['s299.x'], 1);
    assert.equal(properties['s299.n'], 299);
  });

  it('reports syntax errors with their position', () => {
    const error = catchError(() => parseYaml('a: 1\nb: [1, 2\nc: 3\n', 'bad.yml'));
    assert.ok(error instanceof ConfigParseError);
    assert.equal(error.document, 1);
    assert.equal(typeof error.line, 'number');
    assert.match(error.message, /^bad\.yml: document 1, line \d+, column \d+: /);
  });

  it('rejects an alias bomb quickly instead of expanding it', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      '',
    ].join('\n');
    const error = catchError(() => parseYaml(bomb, 'bomb.yml'));
    assert.ok(error instanceof ConfigParseError);
    assert.match(error.message, /alias/i);
  });

  it('never runs !!js/function: the tag is refused like SnakeYAML SafeConstructor does', () => {
    const error = catchError(() =>
      parseYaml('x: !!js/function "function(){ globalThis.hacked = 1 }"\n', 'f.yml'),
    );
    assert.ok(error instanceof ConfigParseError);
    assert.match(error.message, /Unsupported tag/);
    assert.equal((globalThis as Record<string, unknown>).hacked, undefined);
  });

  it('keeps __proto__ as a plain key without polluting prototypes', () => {
    const properties = props('__proto__:\n  polluted: yes\nx:\n  __proto__: 1\n');
    assert.deepEqual(Object.keys(properties), ['__proto__.polluted', 'x.__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(properties), Object.prototype);
  });

  it('splits documents, skipping empty ones, and reads activation', () => {
    const documents = parseYaml(
      'a: 1\n---\n---\nspring:\n  config:\n    activate:\n      on-profile: dev & !db\nb: 2\n---\nspring.profiles: [x, y]\n',
      'app.yml',
    );
    assert.equal(documents.length, 3);
    assert.deepEqual(
      documents.map((d) => [d.index, d.count]),
      [
        [0, 3],
        [1, 3],
        [2, 3],
      ],
    );
    assert.equal(documents[0]?.activation, undefined);
    assert.deepEqual(documents[1]?.activation?.text, ['dev & !db']);
    assert.deepEqual(documents[2]?.activation?.text, ['x', 'y']);
  });

  it('refuses a document that sets both on-profile and spring.profiles', () => {
    const error = catchError(() =>
      parseYaml('a: 1\n---\nspring.profiles: dev\nspring.config.activate.on-profile: dev\n', 'both.yml'),
    );
    assert.ok(error instanceof ConfigParseError);
    assert.equal(error.document, 2);
    assert.match(error.message, /both\.yml: document 2: both/);
  });

  it('refuses a malformed profile expression', () => {
    const error = catchError(() => parseYaml('spring.config.activate.on-profile: a & b | c\n', 'x.yml'));
    assert.ok(error instanceof ConfigParseError);
    assert.match(error.message, /Malformed profile expression/);
  });

  it('dispatches on the file extension', () => {
    assert.deepEqual(parseConfigFile('dir/app.yaml', 'a: on\n')[0]?.properties, new Map([['a', true]]));
    assert.deepEqual(parseConfigFile('app.properties', 'a=on\n')[0]?.properties, new Map([['a', 'on']]));
    assert.throws(() => parseConfigFile('app.json', '{}'), ConfigParseError);
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected an error');
}

describe('YAML origins (v2 environment JSON; the same as Spring Config Server 5.0.2 served for this file)', () => {
  it('records line:column of each value, through lists, anchors and merge keys', () => {
    const text = [
      'base: &base',
      '  timeout: 5',
      '  retries: 2',
      'service:',
      '  <<: *base',
      '  retries: 3',
      '  hosts:',
      '    - "a"',
      '    - b',
      '  empty: []',
      'key.with.dots: |',
      '  text',
      '',
    ].join('\n');
    const [document] = parseConfigFile('app.yml', text);
    assert.deepEqual(document?.origins, {
      'base.timeout': '2:12',
      'base.retries': '3:12',
      'service.timeout': '2:12',
      'service.retries': '6:12',
      'service.hosts[0]': '8:7',
      'service.hosts[1]': '9:7',
      'service.empty': '10:10',
      'key.with.dots': '11:16',
    });
    assert.deepEqual(parseConfigFile('app.properties', 'a=1\n  b : 2\n#---\nc=3\n')[1]?.origins, {
      c: '4:3',
    });
    assert.deepEqual(parseConfigFile('app.properties', 'a=1\n  b : 2\n')[0]?.origins, { a: '1:3', b: '2:7' });
  });
});
