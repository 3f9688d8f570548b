/**
 * `{cipher}` values across a fleet started as users start it: values made with `confbus encrypt`, pushed to a
 * real Git repository, passed through by `confbus server` (encrypt.enabled=false) and decrypted by two sample
 * clients with their own key; a rotated secret reaches both over the bus (a real RabbitMQ vhost). Then a
 * server that decrypts itself. Every log line, HTTP body and backup file is searched for the secrets and the
 * key: only the application's own endpoint (/dynamic) and the decrypting server's environment may show a secret.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { runConfbusCommand, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { busSettings } from '../support/bus-fleet.js';
import {
  type RunningClient,
  type RunningServer,
  startClient,
  startServer,
  stopFleet,
  tempDir,
  waitUntil,
} from '../support/fleet.js';

const KEY = 'fleet key: correct horse battery staple';
const SECRETS = ['first secret ✓', 'rotated secret ✓', 'database pässword'];

async function encrypt(text: string, key = KEY): Promise<string> {
  const run = await runConfbusCommand(['encrypt'], { input: `${text}\n`, env: { ENCRYPT_KEY: key } });
  assert.equal(run.code, 0, run.stderr);
  return `{cipher}${run.stdout.trim()}`;
}

const sampleDev = async (comment: string) =>
  `group:\n  profile: dev\n  comment: '${await encrypt(comment)}'\ndb:\n  password: '${await encrypt(SECRETS[2] ?? '')}'\n`;

/** Fails naming the first output that holds a secret or the key. */
function assertNoSecrets(what: string, text: string): void {
  for (const secret of [...SECRETS, KEY]) {
    assert.ok(!text.includes(secret), `${what} holds '${secret}':\n${text.slice(0, 2000)}`);
  }
}

describe('encrypted values across the fleet', () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let server: RunningServer;
  let clients: RunningClient[];
  let backups: string[];

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': await sampleDev(SECRETS[0] ?? '') });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.encrypt.enabled': false,
      ...busSettings(vhost.name),
    });
    const dir = await tempDir();
    backups = [join(dir, 'one.json'), join(dir, 'two.json')];
    clients = await Promise.all(
      backups.map((file) =>
        startClient(
          {
            'spring.profiles.active': 'dev',
            'spring.cloud.config.uri': server.base,
            'confbus.client.backup.file': file,
            ...busSettings(vhost.name),
          },
          // Keys come through the environment, as in production, never as arguments.
          { env: { ENCRYPT_KEY: KEY } },
        ),
      ),
    );
    for (const client of clients) {
      await waitUntil('the client on the bus', async () => {
        const health = (await client.get('/actuator/health')).json as {
          components?: { bus?: { status: string } };
        };
        return health.components?.bus?.status === 'UP';
      });
    }
  });

  after(async () => {
    await stopFleet();
    await stopAllNodeProcesses();
    await vhost?.remove();
    await remote?.remove();
  });

  const comment = async (client: RunningClient) =>
    ((await client.get('/dynamic')).json as { comment: string }).comment;

  it('passes cipher text through; each client decrypts it with its own key; a rotated secret arrives over the bus', async () => {
    for (const client of clients) assert.equal(await comment(client), SECRETS[0]);
    const served = await (await fetch(`${server.base}/sample/dev`)).text();
    assert.match(served, /"group\.comment":"\{cipher\}[0-9a-f]+"/);
    assertNoSecrets('the pass-through environment', served);

    await remote.commit({ 'sample-dev.yml': await sampleDev(SECRETS[1] ?? '') });
    const [first, second] = clients;
    assert.ok(first && second);
    assert.equal((await first.post('/actuator/busrefresh')).status, 204);
    for (const client of clients) {
      await waitUntil(
        'the rotated secret on every client',
        async () => (await comment(client)) === SECRETS[1],
      );
    }
  });

  it('keeps secrets and the key out of backups, /actuator/env, the server and every log line', async () => {
    for (const [i, file] of backups.entries()) {
      // Whatever version the client holds now (this test does not rely on the one before it having run).
      const health = (await clients[i]!.get('/actuator/health')).json as { details: { version: string } };
      await waitUntil('the backup of the version the client holds', async () =>
        (await readFile(file, 'utf8').catch(() => '')).includes(health.details.version),
      );
      const backup = await readFile(file, 'utf8');
      assertNoSecrets(`backup ${file}`, backup);
      // The cipher text is kept as it came, so the backup restores without a backup key.
      assert.match(backup, /"db\.password": "\{cipher\}[0-9a-f]+"/);
    }
    for (const client of clients) {
      const env = await client.get('/actuator/env');
      assert.equal(env.status, 200);
      const text = JSON.stringify(env.json);
      assertNoSecrets('/actuator/env', text);
      assert.match(text, /"name":"decrypted"/);
      assertNoSecrets('/actuator/health', JSON.stringify((await client.get('/actuator/health')).json));
    }
    for (const proc of [server.process, ...clients.map((client) => client.process)]) {
      assertNoSecrets('a log line', proc.lines.join('\n'));
    }
  });

  it('a server that decrypts serves the plain text, marks what does not decrypt, and shows the key nowhere else', async () => {
    await remote.commit({
      'sample-dev.yml': await sampleDev(SECRETS[1] ?? ''),
      'sample.yml': `other:\n  secret: '${await encrypt('not for this key', 'another key')}'\n`,
    });
    // The key through the environment, as in production: the settings resolver reads ENCRYPT_KEY.
    const started = await startConfbusServer({
      gitUri: remote.url,
      basedir: await tempDir('confbus-e2e-mirror-'),
      env: { ENCRYPT_KEY: KEY },
    });
    try {
      const env = await (await fetch(`${started.url}/sample/dev`)).text();
      assert.ok(env.includes(SECRETS[1] ?? ''), 'decrypted for the client');
      assert.match(env, /"invalid\.other\.secret":"<n\/a>"/);
      const others = await Promise.all(
        ['/actuator/health', '/actuator/prometheus', '/encrypt/status', '/nope/x/y/z'].map(async (path) =>
          (await fetch(`${started.url}${path}`)).text(),
        ),
      );
      const wrong = await fetch(`${started.url}/decrypt`, { method: 'POST', body: 'abcdef' });
      assert.equal(wrong.status, 400);
      for (const text of [...others, await wrong.text()]) assertNoSecrets('a server answer', text);
      await waitUntil('the WARN for the value that does not decrypt', () =>
        started.process.lines.some(
          (line) => line.includes('Cannot decrypt') && line.includes('"key":"other.secret"'),
        ),
      );
      assertNoSecrets('the decrypting server log', started.process.lines.join('\n'));
    } finally {
      await started.process.stop();
    }
  });
});
