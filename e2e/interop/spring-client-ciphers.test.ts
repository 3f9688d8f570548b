/**
 * `{cipher}` values reaching a real Spring Boot app (interop/spring-client) from confbus, both ways Spring
 * supports: confbus decrypts (server-side, Spring's default) and the app gets plain text; or confbus passes the
 * cipher text through (`spring.cloud.config.server.encrypt.enabled=false`) and the app decrypts it with its
 * own `encrypt.key` (spring-cloud-context's DecryptEnvironmentPostProcessor). The values are made by
 * `confbus encrypt`; a rotated secret then reaches both apps over the bus (one RabbitMQ vhost, one webhook).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  type ConfbusProcess,
  runConfbusCommand,
  startConfbusServer,
} from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost, listVhostQueues } from '@confbus/testkit/rabbit-vhost';
import {
  type SpringProcess,
  buildSpringPeer,
  springAppReady,
  spawnSpringApp,
} from '@confbus/testkit/spring-peers';
import { busSettings, postPushWebhook } from '../support/bus-fleet.js';
import { stopFleet, tempDir, waitUntil } from '../support/fleet.js';
import {
  type Group,
  getJsonOk,
  skipWithoutJava,
  springConfigImport,
  springRabbitSettings,
} from './support/spring-fleet.js';

const KEY = 'interop key: correct horse battery staple';
const FIRST = 'first secret ✓';
const ROTATED = 'rotated secret ✓';

async function encrypt(text: string): Promise<string> {
  const run = await runConfbusCommand(['encrypt'], { input: `${text}\n`, env: { ENCRYPT_KEY: KEY } });
  assert.equal(run.code, 0, run.stderr);
  return `{cipher}${run.stdout.trim()}`;
}

const sampleDev = async (secret: string) => `group:\n  profile: dev\n  comment: '${await encrypt(secret)}'\n`;

interface EnvProperty {
  property: { source: string; value: string };
}
interface EnvSources {
  propertySources: { name: string; properties: Record<string, { value: unknown }> }[];
}

describe('a Spring Boot app reads {cipher} values through confbus', { skip: skipWithoutJava() }, () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  /** Decrypts with the key (server-side decryption). */
  let decrypting: ConfbusProcess;
  /** `encrypt.enabled=false`: serves cipher text as it is in the repository. */
  let passThrough: ConfbusProcess;
  /** Reads from `decrypting`, has no key. */
  let plainApp: SpringProcess;
  /** Reads from `passThrough`, decrypts with its own encrypt.key. */
  let decryptingApp: SpringProcess;

  before(async () => {
    const jar = await buildSpringPeer('spring-client');
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': await sampleDev(FIRST) });
    const server = async (args: Record<string, string | number | boolean>, env: Record<string, string>) =>
      startConfbusServer({
        gitUri: remote.url,
        basedir: await tempDir('confbus-e2e-mirror-'),
        args: Object.entries({ ...busSettings(vhost.name), ...args }).map(([k, v]) => `--${k}=${v}`),
        // Keys come through the environment, as in production.
        env,
      });
    [decrypting, passThrough] = await Promise.all([
      server({}, { ENCRYPT_KEY: KEY }),
      server({ 'spring.cloud.config.server.encrypt.enabled': false }, {}),
    ]);
    const app = (serverUrl: string, env: Record<string, string>) =>
      springAppReady(
        spawnSpringApp(
          jar,
          {
            ...springRabbitSettings(vhost.name),
            ...springConfigImport(serverUrl),
            'spring.profiles.active': 'dev',
          },
          { env },
        ),
      );
    // Spring Boot binds ENCRYPT_KEY to encrypt.key, as confbus does.
    [plainApp, decryptingApp] = await Promise.all([
      app(decrypting.url, {}),
      app(passThrough.url, { ENCRYPT_KEY: KEY }),
    ]);
    await waitUntil(
      'four bus queues (two servers, two Spring apps)',
      async () =>
        (await listVhostQueues(vhost.name)).filter((q) => q.startsWith('springCloudBus.')).length === 4,
      60_000,
    );
  });

  after(async () => {
    await stopAllNodeProcesses();
    await stopFleet();
    await vhost?.remove();
    await remote?.remove();
  });

  const comment = async (app: SpringProcess, path = '/dynamic') =>
    (await getJsonOk<Group>(app.url, path)).comment;

  it('serves the value confbus decrypted (server-side decryption); the app itself decrypts nothing', async () => {
    assert.equal(await comment(plainApp), FIRST);
    assert.equal(await comment(plainApp, '/static'), FIRST);
    const property = await getJsonOk<EnvProperty>(plainApp.url, '/actuator/env/group.comment');
    assert.match(property.property.source, /^configserver:/);
    assert.equal(property.property.value, FIRST);
  });

  it('decrypts the cipher text confbus passed through with its own encrypt.key (client-side decryption)', async () => {
    const served = await (await fetch(`${passThrough.url}/sample/dev`)).text();
    assert.match(served, /"group\.comment":"\{cipher\}[0-9a-f]+"/);
    assert.ok(!served.includes(FIRST), 'the pass-through server serves no plain text');

    assert.equal(await comment(decryptingApp), FIRST);
    assert.equal(await comment(decryptingApp, '/static'), FIRST);
    // Spring's DecryptEnvironmentPostProcessor puts the plain text in a `decrypted` source above the
    // configserver: source, which keeps the cipher text.
    const property = await getJsonOk<EnvProperty>(decryptingApp.url, '/actuator/env/group.comment');
    assert.deepEqual(property.property, { source: 'decrypted', value: FIRST });
    const env = await getJsonOk<EnvSources>(decryptingApp.url, '/actuator/env');
    const fromServer = env.propertySources.find((s) => s.name.startsWith('configserver:'));
    assert.match(String(fromServer?.properties['group.comment']?.value), /^\{cipher\}[0-9a-f]+$/);
  });

  it('a rotated secret reaches both apps over the bus after a push + /monitor', async () => {
    await remote.commit({ 'sample-dev.yml': await sampleDev(ROTATED) });
    assert.equal((await postPushWebhook(decrypting.url, ['sample-dev.yml'])).status, 200);
    for (const [name, app] of [
      ['server-side', plainApp],
      ['client-side', decryptingApp],
    ] as const) {
      await waitUntil(
        `the ${name} decrypting app serving the rotated secret`,
        async () => (await comment(app)) === ROTATED,
        60_000,
      );
      assert.equal(await comment(app, '/static'), FIRST, '@Value in a singleton stays');
    }
  });
});
