import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  JavaDouble,
  mergeForRendering,
  parseConfigFile,
  renderEnvironment,
  renderJson,
  renderProperties,
  renderYaml,
  renderingPlaceholders,
  writeJson,
  type PropertySource,
  type PropertyValue,
} from '@confbus/core';

/** Properties from an object literal (its keys are not numbers, so its order is the literal's). */
function props(values: Record<string, PropertyValue>): Map<string, PropertyValue> {
  return new Map(Object.entries(values));
}

describe('merge for rendering', () => {
  it('applies lowest first, keeps first positions, replaces whole lists after the other keys, drops spring.profiles', () => {
    const sources: PropertySource[] = [
      { name: 'high', source: props({ b: 'B-high', 'list[0]': 'only', 'spring.profiles': 'dev', d: 'D' }) },
      {
        name: 'low',
        source: props({ a: 'A', b: 'B-low', 'list[0]': 'x', 'list[1]': 'y', 'list[2]': 'z', c: 'C' }),
      },
    ];
    const merged = mergeForRendering(sources);
    // As Spring Cloud Config 5's convertToProperties (checked against the real server by
    // e2e/interop/spring-differential.test.ts): lists come after every other key.
    assert.deepEqual(
      [...merged],
      [
        ['a', 'A'],
        ['b', 'B-high'],
        ['c', 'C'],
        ['d', 'D'],
        ['list[0]', 'only'],
      ],
    );
  });

  it('keeps each list where it first appeared, among the lists', () => {
    const sources: PropertySource[] = [
      { name: 'high', source: props({ 'z[0]': 'z-high', 'a.l[0]': 'l-high' }) },
      { name: 'low', source: props({ 'a.l[0]': 'l-low', 'a.l[1]': 'l-low-2', k: 1, 'z[0]': 'z-low' }) },
    ];
    assert.deepEqual(
      [...mergeForRendering(sources)],
      [
        ['k', 1],
        ['a.l[0]', 'l-high'],
        ['z[0]', 'z-high'],
      ],
    );
  });
});

describe('renderers', () => {
  it('writes .properties lines in insertion order without a trailing newline', () => {
    assert.equal(
      renderProperties(props({ 'z.last': 'first', a: 1, b: true, c: 'x=y: z' })),
      'z.last: first\na: 1\nb: true\nc: x=y: z',
    );
    assert.equal(renderProperties(props({})), '');
  });

  it('writes YAML lists in block style with indicator indent 0', () => {
    assert.equal(renderYaml(props({ 'a.b[0]': 'c', 'a.b[1]': 'd' })), 'a:\n  b:\n  - c\n  - d\n');
    assert.equal(
      renderYaml(props({ 'l[0].x': 1, 'l[0].y': 2, 'l[1][0]': 'a', 'l[1][1]': 'b' })),
      'l:\n- x: 1\n  y: 2\n- - a\n  - b\n',
    );
  });

  it('writes a compound key when a key is both leaf and parent', () => {
    const expected = 'org:\n  springframework: WARN\n  springframework.cloud: ERROR\n';
    assert.equal(
      renderYaml(props({ 'org.springframework': 'WARN', 'org.springframework.cloud': 'ERROR' })),
      expected,
    );
    assert.equal(
      writeJson(renderJson(props({ 'org.springframework': 'WARN', 'org.springframework.cloud': 'ERROR' }))),
      '{"org":{"springframework":"WARN","springframework.cloud":"ERROR"}}',
    );
  });

  it('quotes strings only when SnakeYAML would', () => {
    const yaml = renderYaml(
      props({
        a: 'on',
        b: '123',
        c: '',
        d: 'x: y',
        e: 'plain text',
        f: 2001,
        g: '2001-12-14',
        h: true,
        i: 'a,b',
        j: "it's",
        k: ' lead',
        l: '~',
        m: '1.5',
        n: 'null',
        on: 'key',
      }),
    );
    assert.equal(
      yaml,
      [
        "a: 'on'",
        "b: '123'",
        "c: ''",
        "d: 'x: y'",
        'e: plain text',
        'f: 2001',
        "g: '2001-12-14'",
        'h: true',
        'i: a,b',
        "j: it's",
        "k: ' lead'",
        "l: '~'",
        "m: '1.5'",
        "n: 'null'",
        "'on': key",
        '',
      ].join('\n'),
    );
    // SnakeYAML's default NonPrintableStyle.BINARY: text it cannot print becomes base64 (Spring: `!!binary |-`).
    assert.equal(renderYaml(props({ c: 'a\u0001b' })), 'c: !!binary |-\n  YQFi\n');
  });

  // Expected texts are what Spring Cloud Config Server 5.0.2 (SnakeYAML 2.x) answered for the same
  // properties in /{app}-default.yml, captured from a running server.
  it('writes multi-line text as literal blocks, as Spring does', () => {
    const flat = props({
      multi: 'line one\nline two\n',
      multiNoEnd: 'a\nb',
      multiTrail: 'a \nb',
      multiLead: '\nfoo',
      multiPlus: 'a\n\n',
      tab: 'a\tb',
      'nested.text': 'x\ny',
    });
    assert.equal(
      renderYaml(flat),
      [
        'multi: |',
        '  line one',
        '  line two',
        'multiNoEnd: |-',
        '  a',
        '  b',
        'multiTrail: "a \\nb"',
        'multiLead: |2-',
        '',
        '  foo',
        'multiPlus: |+',
        '  a',
        '',
        'tab: "a\\tb"',
        'nested:',
        '  text: |-',
        '    x',
        '    y',
        '',
      ].join('\n'),
    );
  });

  it('folds long scalars past column 80, as SnakeYAML does', () => {
    const words = Array.from({ length: 20 }, () => 'word').join(' ');
    assert.equal(
      renderYaml(props({ longplain: words, longquoted: `'${words}` })),
      [
        `longplain: ${Array.from({ length: 15 }, () => 'word').join(' ')}`,
        `  ${Array.from({ length: 5 }, () => 'word').join(' ')}`,
        `longquoted: '''${Array.from({ length: 14 }, () => 'word').join(' ')}`,
        `  ${Array.from({ length: 6 }, () => 'word').join(' ')}'`,
        '',
      ].join('\n'),
    );
    // Folded text reads back as the same string.
    const long = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    assert.deepEqual(
      Object.fromEntries(
        parseConfigFile('x.yml', renderYaml(props({ 'a.b': long, 'l[0]': long })))[0]?.properties ?? [],
      ),
      {
        'a.b': long,
        'l[0]': long,
      },
    );
  });

  it('keeps non-numeric brackets in names, as PropertyNavigator does', () => {
    assert.equal(
      renderYaml(
        props({
          'mapkeys[a.b]': 'x',
          'mapkeys[weird]': 'y',
          'mapkeys.key[x]': 'z',
          'mapkeys.key[x].sub': 'w',
          'mapkeys.k[1x]': 'v',
          'nested.list[abc].deep': 1,
        }),
      ),
      [
        'mapkeys[a:',
        '  b]: x',
        'mapkeys[weird]: y',
        'mapkeys:',
        '  key[x]: z',
        '  key[x].sub: w',
        '  k[1x]: v',
        'nested:',
        '  list[abc]:',
        '    deep: 1',
        '',
      ].join('\n'),
    );
  });

  it('strips a lone document key and handles an empty map', () => {
    assert.equal(renderYaml(props({ document: 'hello' })), 'hello\n');
    assert.equal(renderYaml(props({ 'document[0]': 'a', 'document[1]': 'b' })), '- a\n- b\n');
    assert.equal(renderYaml(props({})), '{}\n');
  });

  it('renders JSON with types kept and no prototype tricks', () => {
    const json = renderJson(props({ 'a.b[0]': 'c', 'a.b[1].d': 1, flag: false, '__proto__.x': 1 }));
    assert.equal(writeJson(json), '{"a":{"b":["c",{"d":1}]},"flag":false,"__proto__":{"x":1}}');
    assert.ok(json instanceof Map, 'a Map: a key is data, never a prototype');
  });
});

describe('typed values in renderings', () => {
  it('prints Java Doubles and big integers as Spring does in .properties, .yml and .json', () => {
    const flat = props({
      thousand: new JavaDouble(1000),
      small: new JavaDouble(0.0015),
      huge: new JavaDouble(1e20),
      tiny: new JavaDouble(1.5e-7),
      inf: new JavaDouble(Number.POSITIVE_INFINITY),
      minus: new JavaDouble(Number.NEGATIVE_INFINITY),
      nan: new JavaDouble(Number.NaN),
      zero: new JavaDouble(-0),
      big: 100000000000000000000n,
      int: 8080,
    });
    assert.equal(
      renderProperties(flat),
      [
        'thousand: 1000.0',
        'small: 0.0015',
        'huge: 1.0E20',
        'tiny: 1.5E-7',
        'inf: Infinity',
        'minus: -Infinity',
        'nan: NaN',
        'zero: -0.0',
        'big: 100000000000000000000',
        'int: 8080',
      ].join('\n'),
    );
    assert.equal(
      renderYaml(flat),
      [
        'thousand: 1000.0',
        'small: 0.0015',
        'huge: 1.0E20',
        'tiny: 1.5E-7',
        'inf: .inf',
        'minus: -.inf',
        'nan: .NaN',
        'zero: -0.0',
        'big: 100000000000000000000',
        'int: 8080',
        '',
      ].join('\n'),
    );
    assert.equal(
      writeJson(renderJson(flat)),
      '{"thousand":1000.0,"small":0.0015,"huge":1.0E20,"tiny":1.5E-7,"inf":"Infinity","minus":"-Infinity",' +
        '"nan":"NaN","zero":-0.0,"big":100000000000000000000,"int":8080}',
    );
  });

  it('writes keys of 128 characters or more, and multi-line keys, in the explicit `? key` form', () => {
    const long = 'k'.repeat(128);
    const simple = 'k'.repeat(127);
    assert.equal(
      renderYaml(
        props({
          [`a.${simple}`]: 1,
          [`a.${long}`]: 'v',
          [`b.${long}.x`]: 1,
          [`b.${long}.y`]: 2,
          [`c.${long}[0]`]: 'p',
          [`c.${long}[1]`]: 'q',
          [`l[0].${long}`]: true,
          'm.line\nbreak': 'x',
        }),
      ),
      [
        'a:',
        `  ${simple}: 1`,
        `  ? ${long}`,
        '  : v',
        'b:',
        `  ? ${long}`,
        '  : x: 1',
        '    y: 2',
        'c:',
        `  ? ${long}`,
        '  : - p',
        '    - q',
        'l:',
        `- ? ${long}`,
        '  : true',
        'm:',
        '  ? |-',
        '    line',
        '    break',
        '  : x',
        '',
      ].join('\n'),
    );
    // A long key with spaces folds past column 80 as a value does, and reads back the same.
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const yaml = renderYaml(props({ [words]: 'v' }));
    assert.match(yaml, /^\? w0 w1 .*\n {2}w\d+ .*\n: v\n$/);
    assert.deepEqual(Object.fromEntries(parseConfigFile('x.yml', yaml)[0]?.properties ?? []), {
      [words]: 'v',
    });
  });
});

describe('placeholders in renderings', () => {
  const sources: PropertySource[] = [
    {
      name: 'app.properties',
      source: props({
        flag: '${enabled}',
        number: '${ratio}',
        sign: '${signed}',
        text: 'jdbc://${host}:${port}/${name:app}',
        'list[0]': 'high',
        item: '${list[1]}',
        profiles: '${spring.profiles}',
        escaped: '\\${host}',
        twice: '\\\\${host}',
      }),
    },
    {
      name: 'application.yml',
      source: props({
        enabled: false,
        ratio: new JavaDouble(1000),
        signed: '+12',
        host: 'db',
        port: 5432,
        'list[0]': 'low',
        'list[1]': 'second',
        'spring.profiles': 'dev',
      }),
    },
  ];
  const render = (format: 'properties' | 'yml' | 'json') =>
    renderEnvironment(sources, format, { resolvePlaceholders: true, name: `app-default.${format}` });

  it('resolves .yml values before writing them, as Spring 5.0.4+ does: a resolved value is a string', () => {
    const yaml = render('yml');
    assert.match(yaml, /^flag: 'false'$/m);
    assert.match(yaml, /^number: '1000\.0'$/m);
    assert.match(yaml, /^sign: '\+12'$/m);
    assert.match(yaml, /^text: jdbc:\/\/db:5432\/app$/m);
    const json = JSON.parse(render('json')) as Record<string, unknown>;
    assert.equal(json.flag, 'false');
    assert.equal(json.number, '1000.0');
    // .properties is still resolved in its text: what the placeholder stood for, unquoted.
    assert.match(render('properties'), /^flag: false$/m);
  });

  it('strips the keys of placeholders in .yml and .json values, not in .properties (spring-cloud-config#3235)', () => {
    const spaced: PropertySource[] = [
      {
        name: 'a.yml',
        source: props({
          greeting: 'hello',
          spaced: '${ greeting } world',
          mixed: '${greeting } and ${ greeting}',
          tab: '${\tgreeting\n}',
          nbsp: '${\u00a0greeting}',
          spacedDefault: '${ missing : dflt }',
          'list[0]': '${ greeting }',
        }),
      },
    ];
    const as = (format: 'yml' | 'json' | 'properties') =>
      renderEnvironment(spaced, format, { resolvePlaceholders: true, name: `a.${format}` });
    const yaml = as('yml');
    assert.match(yaml, /^spaced: hello world$/m);
    assert.match(yaml, /^mixed: hello and hello$/m);
    assert.match(yaml, /^tab: hello$/m);
    assert.match(yaml, /^nbsp: \$\{\u00a0greeting\}$/m, "Java's strip() keeps a no-break space");
    assert.match(yaml, /^spacedDefault: ' dflt '$/m, 'the default is taken as written');
    assert.match(yaml, /^- hello$/m);
    assert.deepEqual((JSON.parse(as('json')) as { list: unknown }).list, ['hello']);
    const properties = as('properties');
    assert.match(properties, /^spaced: \$\{ greeting \} world$/m);
    assert.match(properties, /^spacedDefault: {2}dflt $/m);
  });

  it('writes a value that resolves to several lines as a YAML block, and valid JSON', () => {
    const multi: PropertySource[] = [
      {
        name: 'a.yml',
        source: props({ text: 'line one\nline two\n', copy: '${text}', inside: 'before ${ text } after' }),
      },
    ];
    const yaml = renderEnvironment(multi, 'yml', { resolvePlaceholders: true, name: 'a.yml' });
    assert.match(yaml, /^copy: \|\n {2}line one\n {2}line two\n/m);
    assert.match(yaml, /^inside: \|-\n {2}before line one\n {2}line two\n {3}after\n/m);
    assert.deepEqual(Object.fromEntries(parseConfigFile('back.yml', yaml)[0]?.properties ?? []), {
      text: 'line one\nline two\n',
      copy: 'line one\nline two\n',
      inside: 'before line one\nline two\n after',
    });
    const json = JSON.parse(renderEnvironment(multi, 'json', { resolvePlaceholders: true, name: 'a.json' }));
    assert.equal((json as { inside: string }).inside, 'before line one\nline two\n after');
  });

  it('looks keys up source by source, as Spring does, not in the merged view', () => {
    const properties = render('properties');
    assert.match(properties, /^item: second$/m, 'a list item the merged view replaced');
    assert.match(properties, /^profiles: dev$/m, 'spring.profiles, left out of the merged view');
    assert.match(properties, /^list\[0\]: high$/m);
  });

  it('keeps \\${ and \\\\${ as a literal ${, dropping the backslashes, as Spring masks them', () => {
    const properties = render('properties');
    assert.match(properties, /^escaped: \$\{host\}$/m);
    assert.match(properties, /^twice: \$\{host\}$/m);
    const json = JSON.parse(render('json')) as Record<string, unknown>;
    assert.equal(json.escaped, '${host}');
    assert.equal(json.twice, '${host}');
  });

  it('leaves map keys alone in .yml and .json, and keeps the .json valid when a value holds quotes', () => {
    const withQuotes: PropertySource[] = [
      { name: 'a.yml', source: props({ quote: 'say "hi"\\now', 'k.${which}': '${quote}', which: 'named' }) },
    ];
    const json = renderEnvironment(withQuotes, 'json', { resolvePlaceholders: true, name: 'a.json' });
    assert.deepEqual(JSON.parse(json), {
      quote: 'say "hi"\\now',
      k: { '${which}': 'say "hi"\\now' },
      which: 'named',
    });
    assert.match(
      renderEnvironment(withQuotes, 'properties', { resolvePlaceholders: true, name: 'a.properties' }),
      /^k\.named: say "hi"\\now$/m,
    );
  });

  it('resolves a bare document before it is stripped, as Spring 5.0.4+ does', () => {
    const document: PropertySource[] = [{ name: 'a.yml', source: props({ document: '${x}', x: 'y' }) }];
    assert.match(
      renderEnvironment(document, 'yml', { resolvePlaceholders: true, name: 'a.yml' }),
      /^document: y$/m,
    );
    // spring.profiles is left out of the merged view (so the document stands alone) but still looked up.
    const bare: PropertySource[] = [
      {
        name: 'a.yml',
        source: props({
          'document[0]': '${spring.profiles}',
          'document[1]': '${x}',
          'spring.profiles': 'dev',
        }),
      },
    ];
    assert.equal(
      renderEnvironment(bare, 'yml', { resolvePlaceholders: true, name: 'a.yml' }),
      '- dev\n- ${x}\n',
    );
  });

  it('resolves references, defaults, nesting and escapes; keeps unresolvable and circular ones literal', () => {
    const resolve = renderingPlaceholders(
      [
        {
          name: 'a.yml',
          source: props({
            host: 'db',
            which: 'host',
            self: '${self}',
            ping: 'p-${pong}',
            pong: 'q-${ping}',
          }),
        },
      ],
      'a.yml',
    );
    assert.equal(resolve.inValue('${${which}}', 'nested'), 'db');
    assert.equal(resolve.inValue('${missing:${host}-fallback}', 'defaulted'), 'db-fallback');
    assert.equal(resolve.inValue('${missing:}', 'empty'), '');
    assert.equal(resolve.inValue('\\${host}', 'escaped'), '${host}');
    assert.equal(
      resolve.inText('${missing} ${self} ${ping} ${unclosed'),
      '${missing} ${self} ${ping} ${unclosed',
    );
    assert.equal(resolve.inValue('${ self } ${ ping }', 'circular'), '${ self } ${ ping }');
    // Spring leaves a value alone unless it holds `${` with something inside: its `$_{` mask is not undone.
    assert.equal(resolve.inValue('a$_{b} \\${}', 'untouched'), 'a$_{b} \\${}');
    assert.equal(resolve.inValue('a$_{b} ${host}', 'masked'), 'a${b} db');
  });
});
