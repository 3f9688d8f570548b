// The console under per-person roles, on real git: a viewer reads (values masked, never a secret), may not act or
// read the audit log; an operator acts, and every action lands in the audit file (JSON lines) and the console's
// audit view; a client credential with applications only has no console at all.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AesTextEncryptor } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const KEY = 'console roles key';
const PLAIN = 'db-password-plain-9931';
const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const VIEWER = basic('vera', 'viewer-pw');
const OPERATOR = basic('otto', 'operator-pw');
const CLIENT = basic('app', 'client-pw');

describe('console roles', () => {
  let remote: GitRemote;
  let server: TestServer;
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('confbus-console-roles-');
    remote = await createGitRemote();
    const encryptor = new AesTextEncryptor(KEY, 'deadbeef');
    await remote.commit({ 'app.yml': `db.password: '{cipher}${encryptor.encrypt(PLAIN)}'\nvisible: yes\n` });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'encrypt.key': KEY,
      'confbus.security.clients.vera.password': 'viewer-pw',
      'confbus.security.clients.vera.roles': 'viewer',
      'confbus.security.clients.otto.password': 'operator-pw',
      'confbus.security.clients.otto.roles': 'operator',
      'confbus.security.clients.app.password': 'client-pw',
      'confbus.security.clients.app.applications': 'app',
      'confbus.audit.file': join(work.path, 'audit', 'audit.jsonl'),
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
    await work?.remove();
  });

  it('shows a viewer masked values only, and the role in the session', async () => {
    const env = await server.get('/-/console/api/environment?application=app', { authorization: VIEWER });
    assert.equal(env.status, 200, env.body);
    assert.ok(!env.body.includes(PLAIN));
    assert.ok(!env.body.includes('{cipher}'));
    const session = (await server.get('/-/console/api/session', { authorization: VIEWER })).json() as {
      user: string;
      roles: string[];
    };
    assert.equal(session.user, 'vera');
    assert.deepEqual(session.roles, ['viewer']);
    // A viewer reads no configuration: the environment endpoint would give decrypted values.
    assert.equal((await server.get('/app/default', { authorization: VIEWER })).status, 403);
  });

  it('gives a client credential its configuration and no console', async () => {
    const own = await server.get('/app/default', { authorization: CLIENT });
    assert.equal(own.status, 200);
    assert.match(own.body, new RegExp(PLAIN));
    const console = await server.get('/-/console/api/overview', { authorization: CLIENT });
    assert.equal(console.status, 403);
    assert.equal((console.json() as { code: string }).code, 'CONFBUS_FORBIDDEN');
  });

  it('lets an operator act, not a viewer, and audits both to the file and the console view', async () => {
    const refresh = async (authorization: string) => {
      const { csrfToken } = (await server.get('/-/console/api/session', { authorization })).json() as {
        csrfToken: string;
      };
      return fetch(`${server.base}/-/console/api/bus-refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-confbus-csrf': csrfToken, authorization },
        body: JSON.stringify({ target: 'application', application: 'app' }),
      });
    };
    const byViewer = await refresh(VIEWER);
    assert.equal(byViewer.status, 403);
    assert.equal(((await byViewer.json()) as { code: string }).code, 'CONFBUS_FORBIDDEN');
    // The bus is off in this server: the operator passes the role check and gets the console's own answer.
    const byOperator = await refresh(OPERATOR);
    assert.notEqual(byOperator.status, 403);

    assert.equal((await server.get('/-/console/api/audit', { authorization: VIEWER })).status, 403);
    const view = (await server.get('/-/console/api/audit', { authorization: OPERATOR })).json() as {
      enabled: boolean;
      entries: Array<{ action: string; principal: string; target?: string; outcome: string }>;
    };
    assert.equal(view.enabled, true);
    const refreshes = view.entries.filter((entry) => entry.action === 'bus.refresh');
    assert.deepEqual(
      refreshes.map((entry) => [entry.principal, entry.target, entry.outcome]),
      [
        ['otto', 'app:**', 'failure'],
        // Refused before its body was read: the route stands for the target.
        ['vera', 'POST /-/console/api/bus-refresh', 'denied'],
      ],
    );

    const lines = (await readFile(join(work.path, 'audit', 'audit.jsonl'), 'utf8')).trim().split('\n');
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const fromFile = records.filter((record) => record.action === 'bus.refresh');
    assert.equal(fromFile.length, 2);
    for (const record of fromFile) {
      assert.equal(record.remoteAddress, '127.0.0.1');
      assert.equal(typeof record.time, 'string');
    }
    assert.ok(!lines.join('\n').includes(PLAIN));
  });
});
