// The console's catalogue matches search paths against the repository's directories with core's linear matcher,
// as the environment endpoints do (issue 23, item 11's class of defect): a backtracking RegExp built from
// `*a*a*a*a*a*a*a*b` ran for ages against a long directory name. The hostile case runs in a child process, so a
// matcher that hangs fails the test instead of blocking the runner.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { searchedDirectories } from '../../src/console/application-catalogue.js';

const exec = promisify(execFile);

describe('the catalogue searched directories', () => {
  it('matches as the environment endpoints do, and reads {application}', () => {
    const tree = new Set([
      'teams',
      'teams/payments',
      'teams/orders',
      'teams/orders/eu',
      'apps',
      'apps/svc-billing',
      'deep',
      'deep/a',
      'deep/a/b',
      'deep/a/b/reports',
      'x1',
      'x22',
    ]);
    assert.deepEqual(searchedDirectories(['teams/{application}'], tree), [
      { dir: '' },
      { dir: 'teams/orders', application: 'orders' },
      { dir: 'teams/payments', application: 'payments' },
    ]);
    assert.deepEqual(searchedDirectories(['apps/svc-{application}'], tree).slice(1), [
      { dir: 'apps/svc-billing', application: 'billing' },
    ]);
    assert.deepEqual(searchedDirectories(['deep/**/{application}'], tree).slice(1), [
      { dir: 'deep/a', application: 'a' },
      { dir: 'deep/a/b', application: 'b' },
      { dir: 'deep/a/b/reports', application: 'reports' },
    ]);
    assert.deepEqual(
      searchedDirectories(['x?', 'teams/*/eu', '/teams/'], tree).map((d) => d.dir),
      ['', 'x1', 'teams/orders/eu', 'teams'],
    );
    assert.deepEqual(searchedDirectories(['../teams', 'teams/./x', ''], tree), [{ dir: '' }]);
  });

  it('a hostile directory name against a many-wildcard search path is matched in linear time', async () => {
    const script = `
      import { searchedDirectories } from './packages/server/src/console/application-catalogue.ts';
      const dir = 'a'.repeat(3000);
      const found = searchedDirectories(['*a*a*a*a*a*a*a*a*b', '{application}*a*a*a*a*a*a*a*a*a'], new Set([dir]));
      console.log(JSON.stringify(found.map((d) => [d.dir.length, d.application?.length])));
    `;
    const { stdout } = await exec(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: new URL('../../../../', import.meta.url).pathname,
        timeout: 30_000,
      },
    );
    assert.deepEqual(JSON.parse(stdout), [
      [0, null],
      [3000, null],
    ]);
  });
});
