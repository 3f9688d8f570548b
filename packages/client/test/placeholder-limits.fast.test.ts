// The client resolves placeholders when a value is read: a bomb in the fetched configuration must give a clear
// error naming the key and its property source, fast (issue #15: a client took 15 s and 266 MB to start).
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { runWithDeadline } from '@confbus/testkit/deadline';

const snapshotModule = pathToFileURL(
  new URL('../dist/snapshot/config-snapshot.js', import.meta.url).pathname,
).href;

describe('client placeholder limits', () => {
  it('fails a read of a 22-level placeholder bomb fast, naming the key and the property source', async () => {
    const outcome = await runWithDeadline<{ code: string; message: string } | string>(
      `const { ConfigSnapshot, mapLayer } = await import(${JSON.stringify(snapshotModule)});
       const source = new Map([['p0', 'xx']]);
       for (let i = 1; i <= 22; i++) source.set('p' + i, '\${p' + (i - 1) + '}\${p' + (i - 1) + '}');
       const snapshot = new ConfigSnapshot([mapLayer('configserver:https://git.example/repo/bomb.yml', source)], {});
       try {
         return String(snapshot.resolve('p22')).length;
       } catch (error) {
         return { code: error.code, message: error.message };
       }`,
      20_000,
    );
    assert.ok(outcome.done, 'reading the bomb was still running after 20 s');
    assert.deepEqual(typeof outcome.value, 'object');
    const error = outcome.value as { code: string; message: string };
    assert.equal(error.code, 'CONFBUS_CONFIG_LIMIT');
    assert.match(
      error.message,
      /^configserver:https:\/\/git\.example\/repo\/bomb\.yml: key 'p22': placeholders /,
    );
  });
});
