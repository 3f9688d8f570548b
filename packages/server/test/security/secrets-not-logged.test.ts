// Secrets (git password, basic-auth password, RabbitMQ password, encryption keys) never appear in logs, error
// bodies, health or metrics, whether the server runs normally, meets an upstream outage, rejects credentials,
// or refuses to start on bad settings. The server runs as the real CLI child process at TRACE, so every byte it
// writes to stdout and stderr is captured. (A whole fleet with {cipher} values, key stores and PEM keys is
// searched the same way in e2e/security.)
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type NodeProcess, startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitHttpServer, startGitHttpServer } from '@confbus/testkit/git-http';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestRabbitUser, createTestRabbitUser } from '@confbus/testkit/rabbit-user';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { privateKeyForms, secretForms } from '@confbus/testkit/secret-scan';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const CLI = fileURLToPath(new URL('../../../cli/bin/confbus.js', import.meta.url));
const GIT_PASSWORD = 'g1t-Pa55-9f3e';
const AUTH_PASSWORD = 'b4sic-Pa55-71c2';
const RABBIT_PASSWORD = 'S3cr3t-rabb1t-0d8a';
const WRONG_PASSWORD = 'wr0ng-Pa55-55aa';
const WEBHOOK_SECRET = 'h00k-S3cret-c0de';
const ENCRYPT_KEY = 'encrypt-K3y-3b9f';
/** A PEM RSA key cut short: unreadable, so the server refuses it at start. */
const BROKEN_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString()
  .split('\n')
  .filter((_, i, lines) => i < 12 || i >= lines.length - 2)
  .join('\n');
/** The broker user's password (random, made in `before`) joins these. */
const SECRETS = [GIT_PASSWORD, AUTH_PASSWORD, RABBIT_PASSWORD, WRONG_PASSWORD, WEBHOOK_SECRET, ENCRYPT_KEY];
/** Also the encodings a careless log line would carry: base64 (Authorization), percent-encoded, JSON-escaped. */
const forms = () => [
  ...SECRETS.flatMap((secret) => [
    ...secretForms(secret),
    Buffer.from(`user:${secret}`).toString('base64'),
    Buffer.from(`config:${secret}`).toString('base64'),
  ]),
  ...privateKeyForms(BROKEN_PEM),
];

function assertNoSecret(text: string, where: string): void {
  for (const form of forms())
    assert.ok(!text.includes(form), `${where} contains a secret (${form.slice(0, 4)}…)`);
}

describe('secrets stay out of output', () => {
  let remote: GitRemote;
  let http: GitHttpServer;
  let work: { path: string; remove: () => Promise<void> };
  let vhost: TestVhost;
  let rabbit: TestRabbitUser;
  const seen: string[] = [];

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'a: 1\n', 'broken.yml': 'key: [unclosed\n' });
    http = await startGitHttpServer(dirname(remote.path), {
      auth: { username: 'config', password: GIT_PASSWORD },
    });
    work = await makeTempDir('confbus-secrets-');
    vhost = await createTestVhost();
    rabbit = await createTestRabbitUser(vhost.name);
    SECRETS.push(rabbit.password);
  });
  after(async () => {
    await stopAllNodeProcesses();
    await rabbit?.remove().catch(() => undefined);
    await vhost?.remove();
    await http?.stop();
    await remote?.remove();
    await work?.remove();
  });

  async function startServer(
    name: string,
    args: string[],
    env: Record<string, string> = { SPRING_RABBITMQ_PASSWORD: RABBIT_PASSWORD },
  ): Promise<{ proc: NodeProcess; base: string }> {
    const proc = startNodeProcess(
      CLI,
      [
        'server',
        '--server.port=0',
        '--server.address=127.0.0.1',
        `--spring.cloud.config.server.git.basedir=${work.path}/${name}`,
        '--spring.cloud.config.server.git.timeout=10',
        '--logging.level.root=trace',
        `--spring.security.user.password=${AUTH_PASSWORD}`,
        ...args,
      ],
      env,
      { cwd: work.path },
    );
    const line = await proc.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:\d+/, 60_000);
    // The line's JSON also holds the git uri; the bound address is the one after "listening on".
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? '';
    return { proc, base };
  }

  async function call(base: string, path: string, authorization?: string): Promise<number> {
    const response = await fetch(`${base}${path}`, { headers: authorization ? { authorization } : {} });
    const text = `${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${await response.text()}`;
    assertNoSecret(text, `response to ${path}`);
    seen.push(text);
    return response.status;
  }

  const auth = (user: string, password: string) =>
    `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('a running server: bad credentials, bad requests, broken files and an upstream outage', async () => {
    // Credentials in the uri (the form people paste) and the explicit password setting both in play. The bus
    // is on, with a broker user of its own, so the broker password is in play too.
    const { proc, base } = await startServer(
      'embedded',
      [
        `--confbus.monitor.github.secret=${WEBHOOK_SECRET}`,
        `--spring.cloud.config.server.git.uri=${http.url('config-repo.git').replace('http://', `http://config:${GIT_PASSWORD}@`)}`,
        '--spring.cloud.bus.enabled=true',
        '--spring.rabbitmq.host=127.0.0.1',
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
      ],
      {
        SPRING_RABBITMQ_USERNAME: rabbit.username,
        SPRING_RABBITMQ_PASSWORD: rabbit.password,
        ENCRYPT_KEY,
      },
    );
    await proc.waitForLine(/bus connected/);
    const good = auth('user', AUTH_PASSWORD);
    assert.equal(await call(base, '/foo/dev'), 401);
    assert.equal(await call(base, '/foo/dev', auth('user', WRONG_PASSWORD)), 401);
    assert.equal(await call(base, '/foo/dev', auth(AUTH_PASSWORD, AUTH_PASSWORD)), 401);
    assert.equal(await call(base, '/foo/dev', good), 200);
    assert.equal(await call(base, '/foo/dev/no-such-label', good), 404);
    assert.equal(await call(base, '/foo/dev/-bad..label', good), 400);
    assert.equal(await call(base, '/broken/dev', good), 500);
    assert.equal(await call(base, '/actuator/prometheus', good), 200);
    assert.equal(await call(base, '/encrypt/status', good), 200);
    assert.equal(await call(base, '/key', good), 404);
    const decrypt = await fetch(`${base}/decrypt`, {
      method: 'POST',
      headers: { authorization: good },
      body: 'ab12',
    });
    const decryptText = await decrypt.text();
    assert.equal(decrypt.status, 400, decryptText);
    assertNoSecret(decryptText, 'decrypt response');
    // A webhook with a wrong signature (the monitor's own secret).
    const webhook = await fetch(`${base}/monitor`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
      },
      body: JSON.stringify({ commits: [{ modified: ['foo.yml'] }] }),
    });
    const webhookText = await webhook.text();
    assert.equal(webhook.status, 401, webhookText);
    assertNoSecret(webhookText, 'webhook response');
    // Upstream outage: the check fails, the last state is served, health reports it.
    await http.stop();
    assert.equal(await call(base, '/foo/dev', good), 200);
    assert.equal(await call(base, '/actuator/health', good), 200);
    assert.match(seen.at(-1) ?? '', /"stale":true/);
    await proc.waitForLine(/unreachable/);
    // The broker cuts the server off and refuses it: its reconnect attempts log the broker's errors.
    await rabbit.revoke();
    await rabbit.closeConnections();
    await proc.waitForLine(/bus connection lost/);
    await proc.stop();
    assertNoSecret(proc.lines.join('\n'), 'server output');
    assert.ok(proc.lines.length > 3, 'the server logged something');
  });

  it('a server with the wrong git password: 503 without the password anywhere', async () => {
    const dead = await startGitHttpServer(dirname(remote.path), {
      auth: { username: 'config', password: GIT_PASSWORD },
    });
    try {
      const { proc, base } = await startServer('wrong', [
        `--spring.cloud.config.server.git.uri=${dead.url('config-repo.git')}`,
        '--spring.cloud.config.server.git.username=config',
        `--spring.cloud.config.server.git.password=${WRONG_PASSWORD}`,
      ]);
      assert.equal(await call(base, '/foo/dev', auth('user', AUTH_PASSWORD)), 503);
      await proc.stop();
      assertNoSecret(proc.lines.join('\n'), 'server output');
    } finally {
      await dead.stop();
    }
  });

  it('bad settings on the command line: exit 1 naming the setting, never the secrets', async () => {
    const SAMPLE = '--confbus.server.sample-repository=true';
    const cases: Array<{ args: string[]; expect: RegExp; env?: Record<string, string> }> = [
      { args: ['--server.port=x', `--spring.rabbitmq.password=${RABBIT_PASSWORD}`], expect: /server\.port/ },
      {
        args: [`--spring.security.user.password=${AUTH_PASSWORD}`, '--confbus.security.health-open=maybe'],
        expect: /health-open/,
      },
      // A misspelt secret key: the value must not be echoed with the suggestion.
      { args: [`--spring.rabbitmq.pasword=${RABBIT_PASSWORD}`], expect: /spring\.rabbitmq\.password/ },
      {
        args: [`--spring.cloud.config.server.git.password=${GIT_PASSWORD}`, '--server.port=-5x'],
        expect: /server\.port/,
      },
      // A key that is set but unusable stops the server, naming the setting and not the key.
      { args: ['--encrypt.salt=not-hex', SAMPLE], env: { ENCRYPT_KEY }, expect: /encrypt\.salt/ },
      {
        args: ['--logging.level.root=trace', SAMPLE],
        env: { ENCRYPT_KEY: BROKEN_PEM },
        expect: /encrypt\.key/,
      },
    ];
    for (const { args, expect, env = {} } of cases) {
      const proc = startNodeProcess(CLI, ['server', ...args], env, { cwd: work.path });
      assert.equal(await proc.exited, 1, args.join(' '));
      const output = proc.lines.join('\n');
      assert.match(output, expect);
      assertNoSecret(output, `output of ${args.join(' ')}`);
    }
  });
});
