/**
 * Fault: the config server is down when a client starts.
 * Without fail-fast the client starts from its last-known-good backup and says so; with fail-fast it retries
 * and exits with one clear message. When the server is back, the next refresh converges.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { recordFault } from '../support/fault-report.js';
import {
  type RunningServer,
  confbusBin,
  startClient,
  startServer,
  stopFleet,
  tempDir,
  waitUntil,
} from '../support/fleet.js';

describe('fault: config server down at client start', () => {
  let remote: GitRemote;
  let server: RunningServer;
  let backupFile: string;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'sample-dev.yml': 'group:\n  profile: dev\n  comment: first\ndb:\n  password: s3cr3t-value\n',
    });
    server = await startServer({ 'spring.cloud.config.server.git.uri': remote.url });
    backupFile = join(await tempDir(), 'sample-config.json');
  });

  after(async () => {
    await stopFleet();
    await remote?.remove();
  });

  it('starts from the last-known-good backup, then converges when the server is back', async () => {
    const settings = {
      'spring.profiles.active': 'dev',
      'spring.cloud.config.uri': server.base,
      'confbus.client.backup.file': backupFile,
      'confbus.client.backup.key': 'an operator-chosen key',
    };
    const first = await startClient(settings);
    assert.deepEqual((await first.get('/dynamic')).json, { profile: 'dev', comment: 'first' });
    await first.stop();
    const backup = await readFile(backupFile, 'utf8');
    assert.ok(!backup.includes('s3cr3t-value'), 'secret values are not in clear text in the backup');
    assert.equal((await stat(backupFile)).mode & 0o777, 0o600);

    await server.stop();
    const second = await startClient(settings);
    await second.process.waitForLine(/Starting from the last-known-good configuration backup/, 10_000);
    assert.deepEqual((await second.get('/dynamic')).json, { profile: 'dev', comment: 'first' });
    const health = (await second.get('/actuator/health')).json as {
      status: string;
      details: { source: string };
    };
    assert.equal(health.details.source, 'backup');

    await remote.commit({ 'sample-dev.yml': 'group:\n  profile: dev\n  comment: second\n' });
    await server.restart();
    const restartedAt = Date.now();
    await waitUntil(
      'the refresh to reach the restarted server',
      async () => (await second.post('/actuator/refresh')).status === 200,
    );
    assert.deepEqual((await second.get('/dynamic')).json, { profile: 'dev', comment: 'second' });
    assert.deepEqual((await second.get('/static')).json, { profile: 'dev', comment: 'first' });
    const after = (await second.get('/actuator/health')).json as {
      status: string;
      details: { source: string };
    };
    assert.equal(after.status, 'UP');
    assert.equal(after.details.source, 'server');
    recordFault({
      fault: 'config server down at client start (no fail-fast)',
      clients: 1,
      outcome: 'started from encrypted backup; converged on next refresh',
      convergeMs: Date.now() - restartedAt,
    });
  });

  it('with fail-fast, retries then exits with one clear message', async () => {
    await server.stop();
    const client = startNodeProcess(confbusBin, [
      'sample-client',
      '--server.port=0',
      '--spring.application.name=sample',
      `--spring.cloud.config.uri=${server.base}`,
      '--spring.cloud.config.fail-fast=true',
      '--spring.cloud.config.retry.initial-interval=50',
      '--spring.cloud.config.retry.max-interval=100',
      '--spring.cloud.config.retry.max-attempts=3',
    ]);
    assert.notEqual(await client.exited, 0);
    const output = client.lines.join('\n');
    assert.match(output, /Could not locate PropertySource and the fail fast property is set, failing/);
    assert.equal(
      client.lines.filter((line) => /Config server attempt \d\/3 failed/.test(line)).length,
      2,
      'two retries logged',
    );
    recordFault({
      fault: 'config server down at client start (fail-fast)',
      clients: 1,
      outcome: 'exited non-zero after 3 attempts, one message',
    });
    await server.restart();
  });
});
