import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  SchemaCompiler,
  contractOfPublished,
  publishedContract,
  schemaOfBindings,
  validateEnvironment,
} from '../src/index.js';

/** The CommonJS module files a fresh node process has loaded after running `code` (Ajv is CommonJS). */
async function loadedModules(code: string): Promise<string[]> {
  const probe = `${code}.then(() => console.log(JSON.stringify(Object.keys(require('module')._cache))))`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', probe]);
  return JSON.parse(stdout) as string[];
}
import { environmentOf } from './environments.js';

describe('contracts published from bound schemas', () => {
  const pool = z.object({ size: z.number().int().min(1), url: z.url() });
  const flags = z.object({ beta: z.boolean().optional() });
  const published = publishedContract(
    'shop',
    'shop:8080:abc',
    [
      { prefix: 'shop.pool', schema: pool },
      { prefix: 'features', schema: flags },
    ],
    '1.4.2',
  );

  function check(yaml: string) {
    return validateEnvironment(
      {
        application: 'shop',
        profiles: ['default'],
        environment: environmentOf('shop', ['default'], { 'shop.yml': yaml }),
      },
      [contractOfPublished(published)],
      new SchemaCompiler(),
    ).map((v) => `${v.key} ${v.rule} ${v.contract}`);
  }

  it('nests each binding at its prefix, through Standard JSON Schema', () => {
    assert.equal(published.application, 'shop');
    assert.deepEqual(check('shop.pool.size: 3\nshop.pool.url: https://db.example\n'), []);
    assert.deepEqual(check('shop.pool.size: 0\nshop.pool.url: https://db.example\nfeatures.beta: 2\n'), [
      'shop.pool.size minimum published by shop:8080:abc 1.4.2',
      'features.beta type published by shop:8080:abc 1.4.2',
    ]);
  });

  it('requires a prefix only when its schema requires something', () => {
    assert.deepEqual(check('other: 1\n'), ['shop required published by shop:8080:abc 1.4.2']);
  });

  it('is also its own entry, which loads no validator', async () => {
    const entry = await import('@confbus/contracts/published');
    assert.deepEqual(
      entry.publishedContract('shop', 'shop:8080:abc', [{ prefix: 'shop.pool', schema: pool }]),
      {
        application: 'shop',
        instance: 'shop:8080:abc',
        schema: schemaOfBindings([{ prefix: 'shop.pool', schema: pool }]),
      },
    );
    const loaded = await loadedModules(`import('@confbus/contracts/published')`);
    assert.ok(!loaded.some((path) => path.includes('/ajv/')), loaded.join('\n'));
  });

  it('survives JSON: what a service sends is what the server checks', () => {
    const sent = JSON.parse(JSON.stringify(published)) as typeof published;
    assert.deepEqual(sent, published);
  });
});
