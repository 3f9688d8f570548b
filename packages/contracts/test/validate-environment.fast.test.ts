import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Contract, SchemaCompiler, validateEnvironment } from '../src/index.js';
import { environmentOf } from './environments.js';

const contract = (
  schema: Record<string, unknown>,
  name = '.confbus/contracts/shop.schema.json',
): Contract => ({
  application: 'shop',
  name,
  schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema },
});

const portAndUrl = contract({
  type: 'object',
  properties: {
    server: { type: 'object', properties: { port: { type: 'integer', minimum: 1, maximum: 65535 } } },
    shop: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri' },
        hosts: { type: 'array', items: { type: 'string', minLength: 3 } },
      },
      required: ['url'],
    },
  },
  required: ['shop'],
});

function check(files: Record<string, string>, contracts: Contract[] = [portAndUrl], profiles = ['default']) {
  return validateEnvironment(
    { application: 'shop', profiles, environment: environmentOf('shop', profiles, files) },
    contracts,
    new SchemaCompiler(),
  );
}

describe('validateEnvironment', () => {
  it('accepts a configuration that satisfies the contract, .properties text converted as Spring binds it', () => {
    assert.deepEqual(check({ 'shop.properties': 'server.port=8080\nshop.url=https://shop.example\n' }), []);
  });

  it('names the Spring key, the rule, and the file and line of the offending value', () => {
    const violations = check({
      'shop-dev.yml': 'server:\n  port: 0\n',
      'shop.yml':
        'server:\n  port: 8080\nshop:\n  url: https://shop.example\n  hosts:\n    - ok1\n    - ab\n',
    });
    assert.deepEqual(
      violations.map((v) => [v.key, v.rule, v.origin?.source, v.origin?.line]),
      [
        ['server.port', 'minimum', 'repo/shop-dev.yml', 2],
        ['shop.hosts[1]', 'minLength', 'repo/shop.yml', 7],
      ],
    );
    assert.equal(violations[0]?.contract, '.confbus/contracts/shop.schema.json');
    assert.equal(violations[0]?.message, 'must be >= 1');
  });

  it('reports a missing key without an origin, and a key the contract does not allow with its own', () => {
    const closed = contract({
      type: 'object',
      properties: { shop: { type: 'object', properties: { url: {} }, additionalProperties: false } },
      required: ['shop'],
    });
    assert.deepEqual(
      check({ 'shop.yml': 'other: 1\n' }, [portAndUrl]).map((v) => [v.key, v.rule, v.origin]),
      [['shop', 'required', undefined]],
    );
    const typo = check({ 'shop.properties': 'shop.url=https://x.example\n# a typo\nshop.ulr=x\n' }, [closed]);
    assert.deepEqual(
      typo.map((v) => [v.key, v.rule, v.origin?.line]),
      [['shop.ulr', 'additionalProperties', 3]],
    );
  });

  it('holds every contract of the application: each one broken is reported', () => {
    const strictPort = contract(
      { properties: { server: { properties: { port: { type: 'integer', minimum: 1024 } } } } },
      'published by shop:8080',
    );
    const violations = check({ 'shop.yml': 'server.port: 80\nshop.url: https://x.example\n' }, [
      portAndUrl,
      strictPort,
    ]);
    assert.deepEqual(
      violations.map((v) => v.contract),
      ['published by shop:8080'],
    );
  });

  it('resolves placeholders from the environment, and leaves runtime-only values unjudged but present', () => {
    const files = {
      'shop.yml': [
        'base: 9000',
        'server.port: ${base}',
        'shop.url: ${SHOP_URL}',
        'shop.hosts: ["{cipher}abc", "${HOST:x}"]',
      ].join('\n'),
    };
    // `${HOST:x}` resolves to its default, 'x', which is too short; the others cannot be known offline.
    assert.deepEqual(
      check(files).map((v) => v.key),
      ['shop.hosts[1]'],
    );
  });

  it('judges the value that wins: a profile file overrides, a list is taken whole from one file', () => {
    const violations = check({
      'shop-prod.yml': 'shop:\n  hosts: [good]\n',
      'shop.yml': 'shop:\n  url: https://x.example\n  hosts: [abc, x, y]\n',
    });
    assert.deepEqual(violations, []);
  });

  it('turns anyOf alternatives into one message', () => {
    const duration = contract({
      properties: { t: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+s$' }] } },
    });
    const [violation, ...rest] = check({ 'shop.yml': 't: soon\n' }, [duration]);
    assert.equal(rest.length, 0);
    assert.equal(violation?.key, 't');
    assert.equal(violation?.message, 'must be integer, or must match pattern "^\\d+s$"');
  });

  it('never puts the offending value in a message', () => {
    const secret = contract({
      properties: { db: { properties: { password: { type: 'integer', enum: [1] } } } },
    });
    const violations = check({ 'shop.yml': 'db.password: hunter2-secret\n' }, [secret]);
    assert.ok(violations.length > 0);
    for (const v of violations) assert.ok(!JSON.stringify(v).includes('hunter2'), v.message);
  });
});

describe('SchemaCompiler', () => {
  it('compiles a schema once however many contracts carry it', () => {
    const compiler = new SchemaCompiler();
    for (let i = 0; i < 5; i++) compiler.compile({ ...portAndUrl, application: `app${i}` });
    assert.equal(compiler.compilations, 1);
  });

  it('refuses a schema that does not compile, naming the contract', () => {
    assert.throws(
      () => new SchemaCompiler().compile(contract({ type: 'no-such-type' })),
      (error: Error & { code?: string }) =>
        error.code === 'CONFBUS_CONTRACT_INVALID' &&
        error.message.startsWith('.confbus/contracts/shop.schema.json:'),
    );
  });

  it('takes a changed schema with the same $id', () => {
    const compiler = new SchemaCompiler();
    const v1 = compiler.compile(contract({ $id: 'https://contracts.example/shop', type: 'object' }));
    const v2 = compiler.compile(
      contract({ $id: 'https://contracts.example/shop', type: 'object', required: ['x'] }),
    );
    assert.equal(v1({}).length, 0);
    assert.equal(v2({}).length, 1);
  });
});
