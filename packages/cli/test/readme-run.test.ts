/**
 * The README's `confbus run` example runs as written (with `npx confbus` as this checkout's launcher) against
 * the sample repository the quick-start server serves, and prints what the README says it prints.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN } from '@confbus/testkit/confbus-processes';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';

const exec = promisify(execFile);

async function readmeBlock(): Promise<string> {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Any process: `confbus run`'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the README has the confbus run example');
  return block;
}

describe('README: confbus run', () => {
  const temps: TempDir[] = [];
  after(async () => {
    await stopAllNodeProcesses();
    await Promise.all(temps.map((t) => t.remove()));
  });

  it('prints what the README says', async () => {
    const serverDir = await makeTempDir('confbus-readme-server-');
    const appDir = await makeTempDir('confbus-readme-app-');
    temps.push(serverDir, appDir);
    const server = startNodeProcess(
      CONFBUS_BIN,
      ['server', '--server.port=0', '--server.address=127.0.0.1', '--confbus.server.sample-repository=true'],
      {},
      { cwd: serverDir.path },
    );
    const line = await server.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:\d+/, 60_000);
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? '';
    const block = await readmeBlock();
    const expected = /^# (.*)$/m.exec(block)?.[1];
    assert.ok(expected, 'the example says what it prints');
    const script = block.replaceAll('npx confbus', `"${process.execPath}" "${CONFBUS_BIN}"`);
    // The README's server is on localhost:8888; this one is wherever it found a port.
    const { stdout } = await exec('/bin/sh', ['-c', script], {
      cwd: appDir.path,
      env: { ...process.env, SPRING_CLOUD_CONFIG_URI: url },
    });
    assert.equal(stdout.trim(), expected);
  });
});
