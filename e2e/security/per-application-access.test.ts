/**
 * Per-application access across processes: a real confbus server (its own process, real git) with two client
 * credentials, and the sample client (its own process) fetching with each. With its own credentials it gets its
 * configuration, {cipher} values decrypted; with another application's it is refused (403) and starts on its local
 * settings, and the server's audit file says who was refused, never a secret.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { AesTextEncryptor } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { type RunningServer, startClient, startServer, stopFleet } from '../support/fleet.js';

const KEY = 'per-application access key';
const SECRET = 'sample-db-password-5521';
const SAMPLE_PASSWORD = 'sample client password';
const BILLING_PASSWORD = 'billing client password';

describe('per-application access between client and server processes', () => {
  let remote: GitRemote;
  let server: RunningServer;
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('confbus-e2e-access-');
    remote = await createGitRemote();
    const cipher = new AesTextEncryptor(KEY, 'deadbeef').encrypt(SECRET);
    await remote.commit({
      'sample-dev.yml': `group:\n  profile: dev\n  comment: '{cipher}${cipher}'\n`,
      'billing.yml': 'group:\n  comment: billing only\n',
    });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'encrypt.key': KEY,
      'confbus.security.clients.sample.password': `{bcrypt}${bcrypt.hashSync(SAMPLE_PASSWORD, 10)}`,
      'confbus.security.clients.sample.applications': 'sample',
      'confbus.security.clients.billing.password': `{bcrypt}${bcrypt.hashSync(BILLING_PASSWORD, 10)}`,
      'confbus.security.clients.billing.applications': 'billing',
      'confbus.audit.file': join(work.path, 'audit.jsonl'),
    });
  });

  after(async () => {
    await stopFleet();
    await remote?.remove();
    await work?.remove();
  });

  it('serves the sample client its own configuration, decrypted, with its own bcrypt credentials', async () => {
    const client = await startClient({
      'spring.profiles.active': 'dev',
      'spring.cloud.config.uri': server.base,
      'spring.cloud.config.username': 'sample',
      'spring.cloud.config.password': SAMPLE_PASSWORD,
    });
    assert.deepEqual((await client.get('/dynamic')).json, { profile: 'dev', comment: SECRET });
  });

  it("refuses the sample application to another client's credentials: 403, local settings", async () => {
    const client = await startClient({
      'spring.profiles.active': 'dev',
      'spring.cloud.config.uri': server.base,
      'spring.cloud.config.username': 'billing',
      'spring.cloud.config.password': BILLING_PASSWORD,
    });
    assert.deepEqual((await client.get('/dynamic')).json, { profile: null, comment: null });
    assert.ok(
      client.process.lines.some((line) => /403/.test(line)),
      'the client log says the server answered 403',
    );
    assert.ok(!client.process.lines.some((line) => line.includes(SECRET)));
  });

  it('writes the refusal to the audit file, naming the client and the application, no secret', async () => {
    const text = await readFile(join(work.path, 'audit.jsonl'), 'utf8');
    const records = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const denied = records.find(
      (record) => record.action === 'access.denied' && record.principal === 'billing',
    );
    assert.ok(denied, text);
    assert.equal(denied.target, 'sample');
    assert.equal(denied.outcome, 'denied');
    for (const secret of [SECRET, SAMPLE_PASSWORD, BILLING_PASSWORD]) assert.ok(!text.includes(secret));
  });
});
