// Per-application access over a real server on loopback (fakes behind it): several clients with their own
// credentials (bcrypt, {noop}, bearer tokens), their applications and roles; 403s with a JSON body for another
// application's environment, file, plain text, watch (and its acks) and /decrypt; the fast path keeping the same check; failed
// logins slowed with 429 + Retry-After; and one audit line for each action that changes something or reveals a secret.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { resolveServerSettings } from '../../src/index.js';
import { resolveServerConfig } from '../../src/server-config.js';
import { type FakeTestServer, startTestServer } from '../server-harness.js';

const KEY = 'client-access-test-key';
const ORDERS_PASSWORD = 'orders-pw,with comma';
const BILLING_PASSWORD = 'billing-pw';
const ADMIN_PASSWORD = 'admin-secret-1';
const TOKEN = 'tok_0123456789abcdefghijklmnop';

const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ORDERS = basic('orders', ORDERS_PASSWORD);
const BILLING = basic('billing', BILLING_PASSWORD);
const ADMIN = basic('root', ADMIN_PASSWORD);
const VIEWER = basic('alice', 'viewer-pw');
const OPERATOR = basic('bob', 'operator-pw');

interface ErrorBody {
  status: number;
  code: string;
  message: string;
}

async function post(
  server: FakeTestServer,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', ...headers },
    body,
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe('per-application access', () => {
  let server: FakeTestServer;
  let cipher: string;

  before(async () => {
    server = await startTestServer({
      'encrypt.key': KEY,
      'spring.security.user.name': 'root',
      'spring.security.user.password': ADMIN_PASSWORD,
      'confbus.security.clients.orders.password': `{bcrypt}${bcrypt.hashSync(ORDERS_PASSWORD, 4)}`,
      'confbus.security.clients.orders.applications': 'orders,orders-*',
      'confbus.security.clients.billing.password': `{noop}${BILLING_PASSWORD}`,
      'confbus.security.clients.billing.applications': 'billing',
      'confbus.security.clients.billing.profiles': 'default,prod',
      'confbus.security.clients.deployer.token': `{sha256}${createHash('sha256').update(TOKEN).digest('hex')}`,
      'confbus.security.clients.deployer.applications': 'billing',
      'confbus.security.clients.alice.password': 'viewer-pw',
      'confbus.security.clients.alice.roles': 'viewer',
      'confbus.security.clients.bob.password': 'operator-pw',
      'confbus.security.clients.bob.roles': 'operator',
      'confbus.security.clients.bob.applications': 'orders',
      'confbus.security.max-login-failures': '3',
      'confbus.security.login-failure-window': '60',
      'spring.cloud.config.server.encrypt.plain-text-encrypt': 'true',
    });
    cipher = (await post(server, '/encrypt', 's3cret-db-password', { authorization: ADMIN })).text;
    server.repository.push({
      'application.yml': 'shared: yes-for-all\n',
      'orders.yml': `db.password: '{cipher}${cipher}'\nname: orders\n`,
      'billing.yml': `db.password: '{cipher}${cipher}'\nname: billing\n`,
      'billing.txt': `secret=\${db.password}\n`,
    });
  });

  after(() => server?.stop());

  it('serves a client its own applications, with {cipher} values decrypted, and the shared ones', async () => {
    const own = await server.get('/orders/default', { authorization: ORDERS });
    assert.equal(own.status, 200);
    assert.match(own.body, /s3cret-db-password/);
    const wildcard = await server.get('/orders-eu/default', { authorization: ORDERS });
    assert.equal(wildcard.status, 200);
    const shared = await server.get('/application/default', { authorization: ORDERS });
    assert.equal(shared.status, 200);
    assert.match(shared.body, /yes-for-all/);
  });

  it("refuses another application's environment, file, plain text, watch and several names at once", async () => {
    for (const path of [
      '/billing/default',
      '/billing/default/master',
      '/billing-default.yml',
      '/master/billing-default.properties',
      '/billing/default/master/billing.txt',
      '/orders,billing/default',
      '/-/watch/billing/default?version=0&wait=1s',
    ]) {
      const refused = await server.get(path, { authorization: ORDERS });
      assert.equal(refused.status, 403, path);
      const body = refused.json() as ErrorBody;
      assert.equal(body.code, 'CONFBUS_APPLICATION_FORBIDDEN', path);
      assert.match(body.message, /'orders' may not read application 'billing'/, path);
      assert.doesNotMatch(refused.body, /s3cret/, path);
    }
    const profile = await server.get('/billing/dev', { authorization: BILLING });
    assert.equal(profile.status, 403);
    assert.match((profile.json() as ErrorBody).message, /may not read profile 'dev'/);
    assert.equal((await server.get('/billing/prod', { authorization: BILLING })).status, 200);
  });

  it("refuses a watch ack for another application's instance", async () => {
    const ack = (service: string) =>
      JSON.stringify({ event: '0f8fad5b-d9cb-469f-a165-70867728950e', service, version: 'abc' });
    const json = { 'content-type': 'application/json', authorization: ORDERS };
    const own = await post(server, '/-/watch/acks', ack('orders:prod:8080:9f2c'), json);
    assert.equal(own.status, 202, own.text);
    for (const service of ['billing:8080:9f2c', 'orders,billing:8080:1', 'billing']) {
      const refused = await post(server, '/-/watch/acks', ack(service), json);
      assert.equal(refused.status, 403, service);
      const body = JSON.parse(refused.text) as ErrorBody;
      assert.equal(body.code, 'CONFBUS_APPLICATION_FORBIDDEN', service);
      assert.match(body.message, /'orders' may not read application 'billing'/, service);
    }
  });

  it('accepts bearer tokens and refuses a wrong one with 401', async () => {
    const ok = await server.get('/billing/default', { authorization: `Bearer ${TOKEN}` });
    assert.equal(ok.status, 200);
    assert.equal((await server.get('/orders/default', { authorization: `Bearer ${TOKEN}` })).status, 403);
    const wrong = await server.get('/billing/default', { authorization: `Bearer ${TOKEN}x` });
    assert.equal(wrong.status, 401);
    assert.equal((wrong.json() as ErrorBody).code, 'CONFBUS_UNAUTHORIZED');
  });

  it('keeps the check on the repeat-request fast path: same URL, other client, still 403', async () => {
    const fastPath = server.server.fastPath;
    assert.ok(fastPath, 'the fast path runs with credentials on');
    await server.get('/orders/default/master', { authorization: ORDERS });
    const before = fastPath.served;
    const again = await server.get('/orders/default/master', { authorization: ORDERS });
    assert.equal(again.status, 200);
    assert.equal(fastPath.served, before + 1, 'the repeat was answered by the fast path');
    const other = await server.get('/orders/default/master', { authorization: BILLING });
    assert.equal(other.status, 403);
    assert.equal(fastPath.served, before + 1, 'a principal that may not read it goes through fastify');
    const anonymous = await server.get('/orders/default/master');
    assert.equal(anonymous.status, 401);
  });

  it('keeps /encrypt and /decrypt for admins, and /decrypt/{app} for admins allowed the app', async () => {
    for (const authorization of [ORDERS, VIEWER, OPERATOR]) {
      const refused = await post(server, '/decrypt', cipher, { authorization });
      assert.equal(refused.status, 403);
      assert.equal((JSON.parse(refused.text) as ErrorBody).code, 'CONFBUS_FORBIDDEN');
      assert.doesNotMatch(refused.text, /s3cret/);
    }
    assert.equal((await post(server, '/encrypt', 'x', { authorization: OPERATOR })).status, 403);
    const decrypted = await post(server, '/decrypt/billing/default', cipher, { authorization: ADMIN });
    assert.equal(decrypted.status, 200);
    assert.equal(decrypted.text, 's3cret-db-password');
  });

  it('lets the viewer read actuator views, not configuration; webhooks still reach the open /monitor', async () => {
    assert.equal((await server.get('/actuator/refresh-events', { authorization: VIEWER })).status, 200);
    assert.equal((await server.get('/actuator/refresh-events', { authorization: ORDERS })).status, 403);
    assert.equal((await server.get('/billing/default', { authorization: VIEWER })).status, 403);
    const push = JSON.stringify({ ref: 'refs/heads/master', commits: [{ modified: ['orders.yml'] }] });
    const monitorHeaders = { 'content-type': 'application/json', 'x-github-event': 'push' };
    // /monitor is open by default (webhooks sign their bodies): a delivery goes through, and is audited.
    const delivered = await post(server, '/monitor', push, monitorHeaders);
    assert.notEqual(delivered.status, 401);
    assert.notEqual(delivered.status, 403);
  });

  it('writes one audit line per decrypt, webhook, refusal and failed login, without secrets', () => {
    const actions = server.audit.map((entry) => entry.action);
    assert.ok(actions.includes('decrypt'));
    assert.ok(actions.includes('monitor.push'));
    assert.ok(actions.includes('access.denied'));
    assert.ok(actions.includes('auth.failure'));
    const decrypt = server.audit.find((entry) => entry.action === 'decrypt' && entry.outcome === 'success');
    assert.equal(decrypt?.principal, 'root');
    assert.equal(decrypt?.target, 'billing/default');
    assert.equal(decrypt?.remoteAddress, '127.0.0.1');
    assert.match(decrypt?.time ?? '', /^\d{4}-\d\d-\d\dT/);
    const deniedDecrypt = server.audit.find(
      (entry) => entry.action === 'access.denied' && entry.principal === 'alice',
    );
    assert.ok(deniedDecrypt, 'the viewer refused /decrypt is audited');
    const text = JSON.stringify(server.audit);
    for (const secret of ['s3cret', ORDERS_PASSWORD, ADMIN_PASSWORD, TOKEN, cipher])
      assert.ok(!text.includes(secret), `no ${secret.slice(0, 4)}… in the audit log`);
  });
});

describe('failed logins', () => {
  let server: FakeTestServer;

  before(async () => {
    server = await startTestServer(
      {
        'spring.security.user.password': `{bcrypt}${bcrypt.hashSync('right', 4)}`,
        'confbus.security.max-login-failures': '3',
        'confbus.security.login-failure-window': '60',
      },
      { files: { 'orders.yml': 'a: 1\n' } },
    );
  });

  after(() => server?.stop());

  it('answers 429 with Retry-After past the limit, lets known credentials through, forgets after the window', async () => {
    const good = basic('user', 'right');
    assert.equal((await server.get('/orders/default', { authorization: good })).status, 200);
    for (let i = 0; i < 3; i++) {
      const wrong = await server.get('/orders/default', { authorization: basic('user', `wrong${i}`) });
      assert.equal(wrong.status, 401);
    }
    const blocked = await server.get('/orders/default', { authorization: basic('user', 'right-guess') });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.headers.get('retry-after'), '60');
    assert.equal((blocked.json() as ErrorBody).code, 'CONFBUS_LOGIN_RATE_LIMITED');
    // Credentials verified before keep working from the same address.
    assert.equal((await server.get('/orders/default', { authorization: good })).status, 200);
    server.clock.advance(30_000);
    const later = await server.get('/orders/default', { authorization: basic('user', 'x') });
    assert.equal(later.status, 429);
    assert.equal(later.headers.get('retry-after'), '30');
    server.clock.advance(30_000);
    assert.equal((await server.get('/orders/default', { authorization: basic('user', 'x') })).status, 401);

    const failures = server.audit.filter((entry) => entry.action === 'auth.failure');
    assert.equal(failures.length, 4);
    assert.equal(failures[0]?.principal, 'user', 'a configured user name is named');
    assert.equal(failures[0]?.outcome, 'denied');
    const limited = server.audit.filter((entry) => entry.action === 'auth.rate-limited');
    assert.equal(limited.length, 2);
    assert.equal(limited[0]?.outcome, 'rate-limited');
  });

  it('names no unknown user in the audit log (it may be a password typed in the wrong field)', async () => {
    server.clock.advance(120_000);
    await server.get('/orders/default', { authorization: basic('hunter2-typed-here', 'x') });
    const last = server.audit.at(-1);
    assert.equal(last?.action, 'auth.failure');
    assert.equal(last?.principal, 'unknown');
  });
});

describe('security settings', () => {
  const read = (settings: Record<string, string>) =>
    resolveServerConfig(
      resolveServerSettings({
        args: Object.entries(settings).map(([key, value]) => `--${key}=${value}`),
        env: {},
      }),
    ).security;

  it('keeps the one Spring user as before: every application, admin', () => {
    const { credentials } = read({ 'spring.security.user.password': 'pw' });
    assert.equal(credentials.length, 1);
    assert.deepEqual(credentials[0]?.grants.roles, ['admin']);
    assert.deepEqual(credentials[0]?.grants.applications, ['*']);
    assert.equal(read({}).credentials.length, 0, 'no password, no client: security off');
  });

  it('refuses a client without a secret, an unknown role, a bad hash or encoding, naming the key only', () => {
    assert.throws(
      () => read({ 'confbus.security.clients.a.applications': 'a' }),
      /confbus\.security\.clients\.a\.password: a client needs a password or a token/,
    );
    assert.throws(
      () => read({ 'confbus.security.clients.a.password': 'x', 'confbus.security.clients.a.roles': 'root' }),
      /'root' is not a role/,
    );
    assert.throws(
      () => read({ 'confbus.security.clients.a.password': '{bcrypt}not-a-hash-secretish' }),
      (error: Error) => /not a bcrypt hash/.test(error.message) && !error.message.includes('secretish'),
    );
    assert.throws(
      () => read({ 'confbus.security.clients.a.password': '{sha256}abc' }),
      /\{sha256\} encoding is not supported here/,
    );
    assert.throws(
      () => read({ 'confbus.security.clients.a.pasword': 'x' }),
      /expected confbus\.security\.clients\.<name>\.\(username\|password/,
    );
  });
});
