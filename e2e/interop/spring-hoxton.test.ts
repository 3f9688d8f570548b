/**
 * The seed era's Spring (interop/spring-client-hoxton: Boot 2.3, Spring Cloud Hoxton, run on Java 17) with
 * confbus: it boots from the confbus server (bootstrap-phase config client), and shares the bus with a
 * confbus client: its `bus-refresh` endpoint (the name before Spring Cloud Bus 3) refreshes the confbus
 * client, and a push + /monitor or a confbus `busrefresh` refreshes it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type SpringProcess, buildSpringPeer, startSpringApp } from '@confbus/testkit/spring-peers';
import { busSettings, postPushWebhook } from '../support/bus-fleet.js';
import {
  type RunningClient,
  type RunningServer,
  startClient,
  startServer,
  stopFleet,
  waitUntil,
} from '../support/fleet.js';
import {
  type Group,
  getJsonOk,
  post,
  skipWithoutJava,
  springRabbitSettings,
} from './support/spring-fleet.js';

const dev = (comment: string) => `group:\n  profile: dev\n  comment: ${comment}\n`;

describe('a Spring Boot 2.3 / Hoxton app with confbus', { skip: skipWithoutJava() }, () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let server: RunningServer;
  let hoxton: SpringProcess;
  let client: RunningClient;

  before(async () => {
    const jar = await buildSpringPeer('spring-client-hoxton');
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': dev('v1') });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...busSettings(vhost.name),
    });
    [hoxton, client] = await Promise.all([
      startSpringApp(jar, {
        ...springRabbitSettings(vhost.name),
        'spring.cloud.config.uri': server.base,
        'spring.profiles.active': 'dev',
      }),
      startClient({
        'spring.cloud.config.uri': server.base,
        'spring.profiles.active': 'dev',
        ...busSettings(vhost.name),
      }),
    ]);
  });

  after(async () => {
    await stopAllNodeProcesses();
    await stopFleet();
    await vhost?.remove();
    await remote?.remove();
  });

  const comment = async (base: string) => (await getJsonOk<Group>(base, '/dynamic')).comment;

  it('boots from the confbus server', async () => {
    assert.deepEqual(await getJsonOk<Group>(hoxton.url, '/dynamic'), { profile: 'dev', comment: 'v1' });
  });

  it('bus-refresh on the Hoxton app refreshes the confbus client', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v2') });
    assert.ok([200, 204].includes(await post(hoxton.url, '/actuator/bus-refresh')));
    await waitUntil('the confbus client serving v2', async () => (await comment(client.base)) === 'v2');
    await waitUntil('the Hoxton app serving v2', async () => (await comment(hoxton.url)) === 'v2', 60_000);
  });

  it('a push + /monitor refreshes the Hoxton app', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v3') });
    assert.equal((await postPushWebhook(server.base, ['sample-dev.yml'])).status, 200);
    await waitUntil('the Hoxton app serving v3', async () => (await comment(hoxton.url)) === 'v3', 60_000);
    assert.equal((await getJsonOk<Group>(hoxton.url, '/static')).comment, 'v1');
  });

  it('busrefresh on the confbus client refreshes the Hoxton app', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v4') });
    assert.equal((await client.post('/actuator/busrefresh')).status, 204);
    await waitUntil('the Hoxton app serving v4', async () => (await comment(hoxton.url)) === 'v4', 60_000);
  });
});
