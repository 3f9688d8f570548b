/** A sample client fetching from a server with basic auth: credentials from settings or from the URI. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type RunningServer, startClient, startServer, stopFleet } from '../support/fleet.js';

const PASSWORD = 'correct horse battery staple';
/** The password as a log line could carry it: plain, percent-encoded (URI user info), in a Basic header. */
const PASSWORD_FORMS = [
  PASSWORD,
  encodeURIComponent(PASSWORD),
  Buffer.from(`fleet:${PASSWORD}`).toString('base64'),
];
const logsPassword = (lines: readonly string[]) =>
  lines.some((line) => PASSWORD_FORMS.some((form) => line.includes(form)));

describe('basic auth between client and server', () => {
  let remote: GitRemote;
  let server: RunningServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': 'group:\n  profile: dev\n  comment: protected\n' });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.security.user.name': 'fleet',
      'spring.security.user.password': PASSWORD,
    });
  });

  after(async () => {
    await stopFleet();
    await remote?.remove();
  });

  it('fetches with spring.cloud.config.username/password (password from the environment)', async () => {
    const client = await startClient(
      {
        'spring.profiles.active': 'dev',
        'spring.cloud.config.uri': server.base,
        'spring.cloud.config.username': 'fleet',
      },
      { env: { SPRING_CLOUD_CONFIG_PASSWORD: PASSWORD } },
    );
    assert.deepEqual((await client.get('/dynamic')).json, { profile: 'dev', comment: 'protected' });
    assert.ok(!logsPassword(client.process.lines), 'the password is never logged');
  });

  it("fetches with the URI's user info", async () => {
    const uri = new URL(server.base);
    uri.username = 'fleet';
    uri.password = encodeURIComponent(PASSWORD);
    const client = await startClient({
      'spring.profiles.active': 'dev',
      'spring.cloud.config.uri': uri.href,
    });
    assert.deepEqual((await client.get('/dynamic')).json, { profile: 'dev', comment: 'protected' });
    assert.ok(!logsPassword(client.process.lines), 'the password is never logged');
  });

  it('starts on local settings, saying why, when the password is wrong (no fail-fast)', async () => {
    const client = await startClient({
      'spring.profiles.active': 'dev',
      'spring.cloud.config.uri': server.base,
      'spring.cloud.config.username': 'fleet',
      'spring.cloud.config.password': 'wrong',
    });
    assert.deepEqual((await client.get('/dynamic')).json, { profile: null, comment: null });
    assert.ok(
      client.process.lines.some((line) => /401/.test(line)),
      'the log says the server answered 401',
    );
  });
});
