/**
 * A real Spring Boot application (interop/spring-client: Boot 4.1, Spring Cloud 2025.1, spring-cloud-starter-config)
 * starts from the confbus server: `spring.config.import=configserver:`, profiles, a label, a multi-document
 * file, basic auth, and fail-fast with retry while confbus is down. Real processes, a real Git remote, a
 * RabbitMQ vhost of its own (the app carries the bus starter).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { reserveFreePort, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import {
  buildSpringPeer,
  spawnSpringApp,
  springAppReady,
  startSpringApp,
} from '@confbus/testkit/spring-peers';
import { type RunningServer, startServer, stopFleet, tempDir } from '../support/fleet.js';
import {
  type Group,
  getJsonOk,
  skipWithoutJava,
  springConfigImport,
  springRabbitSettings,
} from './support/spring-fleet.js';

const PASSWORD = 'interop secret';
const SAMPLE_YML = [
  'group:',
  '  profile: default',
  '  comment: from sample.yml',
  '---',
  'spring:',
  '  config:',
  '    activate:',
  '      on-profile: db',
  'group:',
  '  comment: from the db document of sample.yml',
  '',
].join('\n');

describe('a Spring Boot app boots from confbus', { skip: skipWithoutJava() }, () => {
  let jar: string;
  let remote: GitRemote;
  let vhost: TestVhost;
  let server: RunningServer;
  let commonSettings: Record<string, string | number | boolean>;

  before(async () => {
    jar = await buildSpringPeer('spring-client');
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({
      'application.yml': 'group:\n  comment: from application.yml\nshared: everyone\n',
      'sample.yml': SAMPLE_YML,
      'sample-dev.yml': 'group:\n  profile: dev\n',
    });
    await remote.commit({ 'sample-dev.yml': 'group:\n  profile: dev on release\n' }, { branch: 'release' });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.security.user.name': 'fleet',
      'spring.security.user.password': PASSWORD,
    });
    commonSettings = {
      ...springRabbitSettings(vhost.name),
      ...springConfigImport(server.base),
      'spring.cloud.config.username': 'fleet',
      'spring.cloud.config.password': PASSWORD,
    };
  });

  after(async () => {
    await stopAllNodeProcesses();
    await stopFleet();
    await vhost?.remove();
    await remote?.remove();
  });

  it('reads profiles in Spring order, a multi-document file and the shared application.yml', async () => {
    const app = await startSpringApp(jar, { ...commonSettings, 'spring.profiles.active': 'dev,db' });
    assert.deepEqual(await getJsonOk<Group>(app.url, '/dynamic'), {
      profile: 'dev',
      comment: 'from the db document of sample.yml',
    });
    assert.deepEqual(await getJsonOk<Group>(app.url, '/static'), await getJsonOk<Group>(app.url, '/dynamic'));
    // Spring's own view: the property sources confbus served, under Spring's configserver: names.
    const env = await getJsonOk<{ propertySources: { name: string }[] }>(app.url, '/actuator/env');
    const names = env.propertySources
      .map((source) => source.name)
      .filter((n) => n.startsWith('configserver:'));
    const repo = remote.url.replace(/\/$/, '');
    assert.deepEqual(names, [
      `configserver:${repo}/sample-dev.yml`,
      `configserver:${repo}/sample.yml (document #1)`,
      `configserver:${repo}/sample.yml (document #0)`,
      `configserver:${repo}/application.yml`,
    ]);
    const shared = await getJsonOk<{ property: { value: string } }>(app.url, '/actuator/env/shared');
    assert.equal(shared.property.value, 'everyone');
    await app.stop();
  });

  it('reads a label (branch) given by spring.cloud.config.label', async () => {
    const app = await startSpringApp(jar, {
      ...commonSettings,
      'spring.profiles.active': 'dev',
      'spring.cloud.config.label': 'release',
    });
    assert.deepEqual(await getJsonOk<Group>(app.url, '/dynamic'), {
      profile: 'dev on release',
      comment: 'from sample.yml',
    });
    await app.stop();
  });

  it('fails fast, naming the 401, when its password is wrong', async () => {
    const child = spawnSpringApp(jar, {
      ...commonSettings,
      'spring.cloud.config.password': 'wrong',
      'spring.cloud.config.fail-fast': true,
      'spring.cloud.config.retry.max-attempts': 2,
      'spring.cloud.config.retry.initial-interval': 100,
    });
    assert.notEqual(await child.exited, 0);
    assert.ok(
      child.lines.some((line) => /401/.test(line)),
      `the log names the server's 401:\n${child.lines.slice(-30).join('\n')}`,
    );
    assert.ok(!child.lines.some((line) => line.includes(PASSWORD)), 'the right password is never logged');
  });

  it('retries while confbus is down (fail-fast) and starts once it is up', { timeout: 200_000 }, async () => {
    // Spring defers its log until the config import is done, so the first attempt is observed on the
    // wire: a listener on confbus's future port that drops the connection, as a host with nothing there.
    const port = await reserveFreePort();
    const { firstAttempt } = await dropFirstConnection(port);
    const child = spawnSpringApp(jar, {
      ...commonSettings,
      ...springConfigImport(`http://127.0.0.1:${port}`),
      'spring.profiles.active': 'dev',
      'spring.cloud.config.fail-fast': true,
      'spring.cloud.config.retry.max-attempts': 600,
      'spring.cloud.config.retry.initial-interval': 200,
      'spring.cloud.config.retry.max-interval': 500,
    });
    await Promise.race([
      firstAttempt,
      child.exited.then((code) => {
        throw new Error(`the app exited (${code}) before trying confbus:\n${child.lines.join('\n')}`);
      }),
    ]);
    await startConfbusServer({
      gitUri: remote.url,
      basedir: await tempDir(),
      port,
      args: ['--spring.security.user.name=fleet', `--spring.security.user.password=${PASSWORD}`],
    });
    const app = await springAppReady(child);
    assert.deepEqual(await getJsonOk<Group>(app.url, '/dynamic'), {
      profile: 'dev',
      comment: 'from sample.yml',
    });
    await app.stop();
  });
});

/** Listens on `port`, resets the first connection and closes; `firstAttempt` resolves once that happened. */
async function dropFirstConnection(port: number): Promise<{ firstAttempt: Promise<void> }> {
  const listener = createServer();
  const dropped = new Promise<void>((resolve) => {
    listener.once('connection', (socket) => {
      socket.resetAndDestroy();
      listener.close(() => resolve());
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, '127.0.0.1', resolve);
  });
  return { firstAttempt: dropped };
}
