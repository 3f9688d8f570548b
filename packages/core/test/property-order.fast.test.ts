// Properties keep the order their file gave them (issue #25), keys that are numbers (`2`, `10`, a segment
// `x.2.y`) included: a JavaScript object would put those first, in numeric order; Spring keeps file order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decryptEnvironment,
  mergeForRendering,
  parseConfigFile,
  parseJsonInOrder,
  renderEnvironment,
  writeJson,
  type Environment,
  type PropertySource,
  type PropertyValue,
} from '@confbus/core';
import { environmentForJson } from '@confbus/core/internal';
import { sourceKeysOf } from '@confbus/testkit/environment-keys';

const IN_ORDER = ['b', '2', 'a', '10', 'x.2.y'];
const PROPERTIES_FILE = 'b=B\n2=two\na=A\n10=ten\nx.2.y=deep\n';
const YAML_FILE = "b: B\n'2': two\na: A\n'10': ten\nx:\n  '2':\n    y: deep\n";

function sourceOf(path: string, text: string): PropertySource {
  const [document] = parseConfigFile(path, text);
  assert.ok(document);
  return {
    name: path,
    source: document.properties,
    ...(document.origins ? { origins: document.origins } : {}),
  };
}

function environmentOf(...propertySources: PropertySource[]): Environment {
  return { name: 'app', profiles: ['default'], label: null, version: null, state: null, propertySources };
}

/** The keys of each property source, in the order the JSON text lists them. */
const jsonSourceKeys = (text: string) => sourceKeysOf(parseJsonInOrder(text));

for (const [path, text] of [
  ['app.properties', PROPERTIES_FILE],
  ['app.yml', YAML_FILE],
] as const) {
  describe(`property order of ${path}`, () => {
    const source = sourceOf(path, text);

    it('parses the keys in the order the file gives them', () => {
      assert.deepEqual([...source.source.keys()], IN_ORDER);
    });

    it('lists them in that order in the environment JSON, plain and with origins (v2)', () => {
      const environment = environmentOf(source);
      for (const withOrigins of [false, true]) {
        const json = writeJson(environmentForJson(environment, withOrigins));
        assert.deepEqual(jsonSourceKeys(json), [IN_ORDER]);
      }
      assert.match(
        writeJson(environmentForJson(environment, false)),
        /"source":\{"b":"B","2":"two","a":"A",/,
      );
    });

    it('renders them in that order as .properties, .yml and .json', () => {
      const render = (format: 'properties' | 'yml' | 'json') =>
        renderEnvironment([source], format, { resolvePlaceholders: true, name: `app-default.${format}` });
      assert.equal(render('properties'), 'b: B\n2: two\na: A\n10: ten\nx.2.y: deep');
      assert.equal(render('yml'), "b: B\n'2': two\na: A\n'10': ten\nx:\n  '2':\n    y: deep\n");
      assert.equal(render('json'), '{"b":"B","2":"two","a":"A","10":"ten","x":{"2":{"y":"deep"}}}');
    });
  });
}

describe('property order across sources', () => {
  it('merges for rendering with each key where the lowest source first had it', () => {
    const low: PropertySource = {
      name: 'low',
      source: new Map<string, PropertyValue>([
        ['z', 1],
        ['3', 'low'],
        ['a', 1],
      ]),
    };
    const high: PropertySource = {
      name: 'high',
      source: new Map([
        ['3', 'high'],
        ['1', 'new'],
      ]),
    };
    assert.deepEqual(
      [...mergeForRendering([high, low])],
      [
        ['z', 1],
        ['3', 'high'],
        ['a', 1],
        ['1', 'new'],
      ],
    );
  });

  it('keeps the order of the values decryption leaves alone, the decrypted one moved last (as Spring)', async () => {
    const source: PropertySource = {
      name: 'a.properties',
      source: new Map([
        ['b', 'B'],
        ['2', '{cipher}abc'],
        ['a', 'A'],
        ['10', 'ten'],
      ]),
    };
    const { environment } = await decryptEnvironment(environmentOf(source), {
      prefixInvalidProperties: false,
      decryptValue: () => 'clear',
    });
    assert.deepEqual([...(environment.propertySources[0]?.source.keys() ?? [])], ['b', 'a', '10', '2']);
  });

  it('reads JSON members in order, repeated ones in their first place with the last value', () => {
    assert.deepEqual(
      [...(parseJsonInOrder('{"b":1,"2":2,"a":{"10":1,"1":2},"b":3}') as Map<string, unknown>)],
      [
        ['b', 3],
        ['2', 2],
        [
          'a',
          new Map([
            ['10', 1],
            ['1', 2],
          ]),
        ],
      ],
    );
  });
});
