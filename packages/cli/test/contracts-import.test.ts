/** `confbus contracts import` on metadata JSON and on a jar, and the contract it writes enforced by `check`. */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { runConfbusCommand as runConfbus } from '@confbus/testkit/confbus-processes';
import { createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const METADATA = JSON.stringify({
  groups: [{ name: 'shop', type: 'com.example.ShopProperties' }],
  properties: [
    { name: 'shop.pool-size', type: 'java.lang.Integer', defaultValue: 10 },
    { name: 'shop.timeout', type: 'java.time.Duration' },
  ],
});

describe('confbus contracts import', () => {
  const cleanups: Array<() => Promise<void>> = [];
  after(() => Promise.all(cleanups.map((cleanup) => cleanup())));

  it('makes a contract from a jar that check then enforces', async () => {
    const temp = await makeTempDir('confbus-import-');
    cleanups.push(temp.remove);
    const jar = zipSync({
      'BOOT-INF/classes/META-INF/spring-configuration-metadata.json': strToU8(METADATA),
    });
    await writeFile(join(temp.path, 'shop.jar'), jar);
    const run = await runConfbus(
      [
        'contracts',
        'import',
        'shop.jar',
        '--application',
        'shop',
        '--out',
        'shop.schema.json',
        '--reject-unknown-keys',
      ],
      { cwd: temp.path },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /2 properties of shop\.jar → shop\.schema\.json/);
    const contract = await readFile(join(temp.path, 'shop.schema.json'), 'utf8');
    assert.equal((JSON.parse(contract) as { title: string }).title, 'shop');

    const remote = await createGitRemote();
    cleanups.push(remote.remove);
    const commit = await remote.commit({
      '.confbus/contracts/shop.schema.json': contract,
      'shop.yml': 'shop:\n  pool-size: 4\n  timeout: 10 minutes\n  pool-sise: 3\n',
    });
    const check = await runConfbus(['check', '--repo', remote.path, '--commit', commit]);
    assert.equal(check.code, 1, check.stderr);
    assert.deepEqual(
      check.stdout
        .trim()
        .split('\n')
        .map((line) => line.slice(0, line.indexOf(' (shop/'))),
      [
        'shop.yml:3 shop.timeout: must be a duration such as 30s, 500ms or PT1M',
        'shop.yml:4 shop.pool-sise: is not a key the contract allows (misspelt, or no longer used?)',
      ],
    );
  });

  it('writes to standard output, and refuses bad input', async () => {
    const temp = await makeTempDir('confbus-import-');
    cleanups.push(temp.remove);
    await writeFile(join(temp.path, 'meta.json'), METADATA);
    await writeFile(join(temp.path, 'other.json'), '{"name": "x"}');
    const run = await runConfbus(['contracts', 'import', 'meta.json', '--application', 'shop'], {
      cwd: temp.path,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      (JSON.parse(run.stdout) as { properties: { shop: object } }).properties.shop !== undefined,
      true,
    );
    const notMetadata = await runConfbus(['contracts', 'import', 'other.json', '--application', 'shop'], {
      cwd: temp.path,
    });
    assert.equal(notMetadata.code, 1);
    assert.match(notMetadata.stderr, /other\.json: no "properties" list/);
    for (const args of [
      ['meta.json'],
      ['--application', 'shop'],
      ['missing.json', '--application', 'shop'],
    ]) {
      const usage = await runConfbus(['contracts', 'import', ...args], { cwd: temp.path });
      assert.equal(usage.code, 2, usage.stderr);
    }
    assert.equal((await runConfbus(['contracts', 'export'])).code, 2);
  });
});
