import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zipSync, strToU8 } from 'fflate';
import {
  type Contract,
  SchemaCompiler,
  contractOfSpringMetadata,
  isZipArchive,
  parseSpringMetadata,
  springMetadataOfJar,
  validateEnvironment,
} from '../src/index.js';
import { environmentOf } from './environments.js';

// Shaped as spring-boot-configuration-processor writes it for a @ConfigurationProperties("shop") class.
const METADATA = {
  groups: [{ name: 'shop', type: 'com.example.ShopProperties', sourceType: 'com.example.ShopProperties' }],
  properties: [
    {
      name: 'shop.pool-size',
      type: 'java.lang.Integer',
      defaultValue: 10,
      sourceType: 'com.example.ShopProperties',
    },
    { name: 'shop.enabled', type: 'java.lang.Boolean' },
    { name: 'shop.timeout', type: 'java.time.Duration', defaultValue: '30s' },
    { name: 'shop.max-upload', type: 'org.springframework.util.unit.DataSize' },
    { name: 'shop.ratio', type: 'double' },
    { name: 'shop.hosts', type: 'java.util.List<java.lang.String>' },
    { name: 'shop.ports', type: 'java.util.Set<java.lang.Integer>' },
    { name: 'shop.limits', type: 'java.util.Map<java.lang.String,java.lang.Long>' },
    { name: 'shop.mode', type: 'com.example.Mode' },
    { name: 'shop.owner', type: 'com.example.Owner' },
    { name: 'shop.old', type: 'java.lang.String', deprecated: true, deprecation: { level: 'warning' } },
  ],
  hints: [{ name: 'shop.mode', values: [{ value: 'fast-lane' }, { value: 'safe' }] }],
};

const text = JSON.stringify(METADATA);

function violationsOf(yaml: string, rejectUnknownKeys = false) {
  const schema = contractOfSpringMetadata(parseSpringMetadata(text, 'meta.json'), {
    source: 'meta.json',
    rejectUnknownKeys,
  });
  const contract: Contract = { application: 'shop', name: 'imported', schema };
  return validateEnvironment(
    {
      application: 'shop',
      profiles: ['default'],
      environment: environmentOf('shop', ['default'], { 'shop.yml': yaml }),
    },
    [contract],
    new SchemaCompiler(),
  ).map((v) => `${v.key} ${v.rule}`);
}

describe('contracts from Spring configuration metadata', () => {
  it('maps Java types to JSON Schema types at their nested places', () => {
    const schema = contractOfSpringMetadata(parseSpringMetadata(text, 'm'), { source: 'm' }) as {
      properties: { shop: { properties: Record<string, Record<string, unknown>> } };
    };
    const shop = schema.properties.shop.properties;
    assert.deepEqual(shop['pool-size'], { type: 'integer', default: 10 });
    assert.equal(shop.enabled?.type, 'boolean');
    assert.equal(shop.ratio?.type, 'number');
    assert.deepEqual(shop.limits, { type: 'object', additionalProperties: { type: 'integer' } });
    assert.deepEqual(shop.owner, {});
    assert.equal(shop.old?.deprecated, true);
  });

  it('accepts what Spring would bind', () => {
    const yaml = [
      'shop:',
      '  pool-size: "12"',
      '  enabled: on',
      '  timeout: PT1M',
      '  max-upload: 10MB',
      '  ratio: 0.5',
      '  hosts: a.example,b.example',
      '  ports: [80, 443]',
      '  limits: {a: 1, b: 2}',
      '  mode: FAST_LANE',
      '  owner: {name: x}',
      '  anything-else: 1',
    ].join('\n');
    assert.deepEqual(violationsOf(yaml), []);
    assert.deepEqual(violationsOf('shop.timeout: 250\nshop.mode: safe\n'), []);
  });

  it('refuses what Spring could not bind', () => {
    const yaml = [
      'shop.pool-size: ten',
      'shop.enabled: maybe',
      'shop.timeout: 30 seconds',
      'shop.ports[1]: https',
      'shop.limits.a: lots',
      'shop.mode: slow',
    ].join('\n');
    assert.deepEqual(violationsOf(yaml), [
      'shop.pool-size type',
      'shop.enabled type',
      'shop.timeout anyOf',
      'shop.ports anyOf',
      'shop.limits.a type',
      'shop.mode pattern',
    ]);
  });

  it('refuses keys a group does not declare only when asked', () => {
    assert.deepEqual(violationsOf('shop.pool-sise: 3\n', true), ['shop.pool-sise additionalProperties']);
    assert.deepEqual(violationsOf('shop.pool-sise: 3\n', false), []);
  });

  it('refuses a file that is not metadata', () => {
    assert.throws(() => parseSpringMetadata('{"groups": []}', 'x.json'), /x\.json: no "properties" list/);
    assert.throws(() => parseSpringMetadata('nope', 'x.json'), { code: 'CONFBUS_CONTRACT_METADATA' });
  });

  it('reads the metadata out of a jar and a Boot fat jar', () => {
    const jar = zipSync({
      'META-INF/MANIFEST.MF': strToU8('Manifest-Version: 1.0\n'),
      'META-INF/spring-configuration-metadata.json': strToU8(text),
    });
    assert.ok(isZipArchive(jar));
    assert.equal(springMetadataOfJar(jar, 'shop.jar').properties.length, METADATA.properties.length);
    const fat = zipSync({ 'BOOT-INF/classes/META-INF/spring-configuration-metadata.json': strToU8(text) });
    assert.equal(springMetadataOfJar(fat, 'fat.jar').properties.length, METADATA.properties.length);
    const empty = zipSync({ 'a.txt': strToU8('x') });
    assert.throws(() => springMetadataOfJar(empty, 'empty.jar'), /empty\.jar: holds no META-INF/);
  });
});
