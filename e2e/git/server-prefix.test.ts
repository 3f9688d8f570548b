/**
 * The real `confbus server` with Spring's `spring.cloud.config.server.prefix`, and a client whose
 * `spring.cloud.config.uri` carries the prefix, as a Spring deployment with a prefix has its clients configured.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { silentLogger } from '@confbus/core';
import { type ConfbusProcess, getJson, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';

describe('confbus server CLI with spring.cloud.config.server.prefix', () => {
  let work: Awaited<ReturnType<typeof makeTempDir>>;
  let remote: GitRemote;
  let server: ConfbusProcess | undefined;

  before(async () => {
    work = await makeTempDir('confbus-prefix-');
    remote = await createGitRemote();
    await remote.commit({ 'orders.yml': 'greeting: from the prefixed server\n' });
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: join(work.path, 'mirror'),
      cwd: work.path,
      args: ['--spring.cloud.config.server.prefix=/config'],
    });
  });

  after(async () => {
    await server?.process.stop();
    await remote?.remove();
    await work?.remove();
  });

  it('serves clients whose uri ends in the prefix; the root and the actuator stay as they were', async () => {
    const base = (server as ConfbusProcess).url;
    const client = await ConfigClient.start({
      args: [`--spring.cloud.config.uri=${base}/config`, '--spring.application.name=orders'],
      env: {},
      logger: silentLogger,
    });
    try {
      assert.equal(client.get('greeting'), 'from the prefixed server');
    } finally {
      await client.close();
    }
    assert.equal((await getJson(`${base}/orders/default`)).status, 404);
    assert.equal((await getJson(`${base}/actuator/health`)).status, 200);
  });
});
