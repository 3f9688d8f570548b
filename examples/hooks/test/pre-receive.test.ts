/**
 * examples/hooks/pre-receive installed in a real bare repository: a push whose configuration breaks a contract is
 * refused (the branch does not move, the pusher sees the violation), one that keeps them is accepted.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { CONFBUS_BIN } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';

const run = promisify(execFile);
const HOOK = fileURLToPath(new URL('../pre-receive', import.meta.url));
const CONTRACT = JSON.stringify({
  type: 'object',
  properties: { shop: { type: 'object', properties: { 'pool-size': { type: 'integer', minimum: 1 } } } },
});

describe('the pre-receive hook example', () => {
  let remote: GitRemote;
  const head = async () => (await run('git', ['rev-parse', 'master'], { cwd: remote.path })).stdout.trim();

  before(async () => {
    remote = await createGitRemote();
    // The hook as an operator installs it, with `confbus` being this checkout's CLI.
    const installed = join(remote.path, 'hooks', 'pre-receive');
    await writeFile(
      installed,
      `#!/usr/bin/env bash\nexport CONFBUS="${process.execPath} ${CONFBUS_BIN}"\nexec ${HOOK}\n`,
    );
    await chmod(installed, 0o755);
  });
  after(() => remote.remove());

  it('accepts a new branch whose configuration keeps its contracts', async () => {
    const commit = await remote.commit({
      '.confbus/contracts/shop.schema.json': CONTRACT,
      'shop.yml': 'shop:\n  pool-size: 5\n',
    });
    assert.equal(await head(), commit);
  });

  it('refuses a push that breaks a contract: the branch stays, the pusher sees file:line and key', async () => {
    const before = await head();
    const refused = await remote.commit({ 'shop.yml': 'shop:\n  pool-size: 0\n' }).then(
      () => undefined,
      (error: Error & { stderr?: string }) => error,
    );
    assert.ok(refused, 'the push was accepted');
    assert.match(refused.stderr ?? '', /remote: shop\.yml:2 shop\.pool-size: must be >= 1/);
    assert.match(refused.stderr ?? '', /remote: confbus: refs\/heads\/master refused/);
    assert.match(refused.stderr ?? '', /remote: shop\/default: changed shop\.pool-size/);
    assert.equal(await head(), before);
  });

  it('accepts the push that fixes it (the tip is what the server will serve)', async () => {
    const fixed = await remote.commit({ 'shop.yml': 'shop:\n  pool-size: 2\n' });
    assert.equal(await head(), fixed);
  });
});
