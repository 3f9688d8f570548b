/**
 * `{cipher}` values across a fleet started as users start it: values made with `confbus encrypt`, pushed to a
 * real Git repository, passed through by `confbus server` (encrypt.enabled=false) and decrypted by two sample
 * clients with their own key; a rotated secret reaches both over the bus (a real RabbitMQ vhost). Then servers
 * that decrypt themselves, with a symmetric key and with a PEM RSA key. Every process logs at TRACE, and every
 * log line, every answer of every endpoint (actuator, encryption, console API, errors) and every backup file is
 * searched for the keys, the `{secret:...}` of a cipher text and the plain texts: only the application's own
 * endpoints (/dynamic, /static) and a decrypting server's environment may show a decrypted secret.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { runConfbusCommand, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { assertNoSecrets, privateKeyForms, secretForms } from '@confbus/testkit/secret-scan';
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
import { fetchAnswer, fetchServerAnswers } from '../support/server-answers.js';

const KEY = 'fleet key: correct horse battery staple';
/** A PKCS#1 PEM in encrypt.key makes the key RSA, as in Spring. */
const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString();
const SECRETS = ['first secret ✓', 'rotated secret ✓', 'database pässword'];
/**
 * The `{secret:...}` prefix of a cipher text (a key store entry's password; a symmetric key ignores it): it
 * travels with the cipher text, so the pass-through environment carries it, but no other output may.
 */
const PREFIX_SECRET = 'pr3fix-S3cret-7d1e';
const TRACE = { 'logging.level.root': 'trace' };

const plainForms = SECRETS.flatMap(secretForms);
const keyForms = [...secretForms(KEY), ...secretForms(PREFIX_SECRET)];
const allForms = [...plainForms, ...keyForms];

async function encrypt(text: string, key = KEY): Promise<string> {
  const run = await runConfbusCommand(['encrypt'], { input: `${text}\n`, env: { ENCRYPT_KEY: key } });
  assert.equal(run.code, 0, run.stderr);
  return `{cipher}${run.stdout.trim()}`;
}

const sampleDev = async (comment: string, key = KEY) =>
  [
    'group:',
    '  profile: dev',
    `  comment: '${await encrypt(`{secret:${PREFIX_SECRET}}${comment}`, key)}'`,
    'db:',
    `  password: '${await encrypt(SECRETS[2] ?? '', key)}'`,
    '',
  ].join('\n');

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
      ...TRACE,
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
            ...TRACE,
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
    assert.match(served, /"group\.comment":"\{cipher\}\{secret:[^}]+\}[0-9a-f]+"/);
    assertNoSecrets('the pass-through environment', served, [...plainForms, ...secretForms(KEY)]);

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

  it('keeps secrets and the key out of backups, every answer and every log line', async () => {
    for (const [i, file] of backups.entries()) {
      // Whatever version the client holds now (this test does not rely on the one before it having run).
      const health = (await clients[i]!.get('/actuator/health')).json as { details: { version: string } };
      await waitUntil('the backup of the version the client holds', async () =>
        (await readFile(file, 'utf8').catch(() => '')).includes(health.details.version),
      );
      const backup = await readFile(file, 'utf8');
      assertNoSecrets(`backup ${file}`, backup, allForms);
      // The cipher text is kept as it came, so the backup restores without a backup key.
      assert.match(backup, /"db\.password": "\{cipher\}[0-9a-f]+"/);
    }
    for (const client of clients) {
      const env = await client.get('/actuator/env');
      assert.equal(env.status, 200);
      assert.match(JSON.stringify(env.json), /"name":"decrypted"/);
      const paths = [
        '/actuator',
        '/actuator/env',
        '/actuator/health',
        '/actuator/prometheus',
        '/actuator/nope',
      ];
      for (const path of paths) {
        const answer = await fetchAnswer(client.base, path);
        assertNoSecrets(`the client's ${answer.request}`, answer.text, allForms);
      }
    }
    const answers = await fetchServerAnswers(server.base, 'sample', 'dev');
    for (const answer of answers.environment) {
      assertNoSecrets(`the server's ${answer.request}`, answer.text, [...plainForms, ...secretForms(KEY)]);
    }
    for (const answer of answers.other)
      assertNoSecrets(`the server's ${answer.request}`, answer.text, allForms);
    for (const proc of [server.process, ...clients.map((client) => client.process)]) {
      assertNoSecrets('a log line', proc.lines.join('\n'), allForms);
    }
  });

  it("a decrypting server's clients mask what was {cipher} text in /actuator/env and keep it out of their backups, whatever its key", async () => {
    await remote.commit({ 'sample-dev.yml': await sampleDev(SECRETS[1] ?? '') });
    const decrypting = await startConfbusServer({
      gitUri: remote.url,
      basedir: await tempDir('confbus-e2e-mirror-'),
      env: { ENCRYPT_KEY: KEY },
    });
    try {
      const dir = await tempDir();
      const omitted = join(dir, 'omitted.json');
      const sealed = join(dir, 'sealed.json');
      const settings = (file: string) => ({
        'spring.profiles.active': 'dev',
        'spring.cloud.config.uri': decrypting.url,
        'confbus.client.backup.file': file,
      });
      const backupKey = { env: { CONFBUS_CLIENT_BACKUP_KEY: 'e2e backup key' } };
      const envShows = async (client: RunningClient, what: string) => {
        // `group.comment` looks like no secret: only the server's marker tells the client it was one.
        assert.equal(await comment(client), SECRETS[1], 'the application reads the value');
        const env = await fetchAnswer(client.base, '/actuator/env');
        assert.equal(env.status, 200);
        assertNoSecrets(`/actuator/env of ${what}`, env.text, plainForms);
      };
      await envShows(await startClient(settings(omitted)), 'a client without a backup key');
      await envShows(await startClient(settings(sealed), backupKey), 'a client with a backup key');
      for (const file of [omitted, sealed])
        assertNoSecrets(`backup ${file}`, await readFile(file, 'utf8'), plainForms);

      await decrypting.process.stop();
      const restored = await startClient(settings(sealed), backupKey);
      await envShows(restored, 'a client started from its backup');
    } finally {
      await decrypting.process.stop();
    }
  });

  const keys = [
    { name: 'a symmetric key', key: KEY },
    { name: 'a PEM RSA key', key: PEM },
  ];
  for (const { name, key } of keys) {
    it(`a server that decrypts with ${name} serves the plain text, marks what does not decrypt, and shows no key anywhere else`, async () => {
      await remote.commit({
        'sample-dev.yml': await sampleDev(SECRETS[1] ?? '', key),
        'sample.yml': `other:\n  secret: '${await encrypt('not for this key', 'another key')}'\n`,
      });
      // The key through the environment, as in production: the settings resolver reads ENCRYPT_KEY.
      const started = await startConfbusServer({
        gitUri: remote.url,
        basedir: await tempDir('confbus-e2e-mirror-'),
        args: ['--logging.level.root=trace'],
        env: { ENCRYPT_KEY: key },
      });
      try {
        const answers = await fetchServerAnswers(started.url, 'sample', 'dev');
        const publicKey = answers.other.find((answer) => answer.request === 'GET /key');
        if (key === PEM) assert.match(publicKey?.text ?? '', /\nssh-rsa AAAAB3NzaC1yc2E\S+ application$/);
        else assert.equal(publicKey?.status, 404);
        const forms = key === PEM ? [...privateKeyForms(PEM, publicKey?.text), ...keyForms] : keyForms;

        const env = answers.environment[0]?.text ?? '';
        assert.ok(env.includes(SECRETS[1] ?? ''), 'decrypted for the client');
        assert.match(env, /"invalid\.other\.secret":"<n\/a>"/);
        for (const answer of answers.environment) {
          assertNoSecrets(`the decrypting server's ${answer.request}`, answer.text, forms);
        }
        for (const answer of answers.other) {
          assertNoSecrets(`the decrypting server's ${answer.request}`, answer.text, [
            ...plainForms,
            ...forms,
          ]);
        }
        assert.equal(answers.other.find((answer) => answer.request === 'POST /decrypt')?.status, 400);
        await waitUntil('the WARN for the value that does not decrypt', () =>
          started.process.lines.some(
            (line) => line.includes('Cannot decrypt') && line.includes('"key":"other.secret"'),
          ),
        );
        assertNoSecrets('the decrypting server log', started.process.lines.join('\n'), [
          ...plainForms,
          ...forms,
        ]);
      } finally {
        await started.process.stop();
      }
    });
  }
});
