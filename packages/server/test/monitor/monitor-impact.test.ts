// POST /monitor?impact=true on real Git: the answer says which environments the push changed and which keys
// (never a value); without the parameter it is Spring's array of services.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const push = (server: TestServer, query: string, paths: string[]) =>
  fetch(`${server.base}/monitor${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    body: JSON.stringify({ commits: [{ modified: paths }] }),
  });

describe('POST /monitor?impact=true', () => {
  let remote: GitRemote;
  let server: TestServer;
  let first: string;

  before(async () => {
    remote = await createGitRemote();
    first = await remote.commit({
      'application.yml': 'server:\n  port: 8080\n',
      'foo.yml': 'limit: 1\ntoken: first-secret\n',
      'foo-dev.yml': 'debug: true\n',
      'bar.yml': 'rate: 1\n',
    });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': '3600',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'false',
    });
  });
  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('lists each environment the push changed with the keys added, removed and changed', async () => {
    const second = await remote.commit({ 'foo.yml': 'limit: 2\ntoken: second-secret\nretries: 3\n' });
    const response = await push(server, '?impact=true', ['foo.yml']);
    assert.equal(response.status, 200);
    const text = await response.text();
    const body = JSON.parse(text) as {
      services: string[];
      impact: {
        base: string;
        commit: string;
        files: string[];
        skipped: number;
        environments: Array<{
          application: string;
          profiles: string[];
          added: string[];
          removed: string[];
          changed: string[];
        }>;
      };
    };
    assert.deepEqual(body.services, ['foo']);
    assert.deepEqual([body.impact.base, body.impact.commit], [first, second]);
    assert.deepEqual(body.impact.files, ['foo.yml']);
    assert.deepEqual(
      body.impact.environments.map((e) => [
        e.application,
        e.profiles.join(','),
        e.added,
        e.removed,
        e.changed,
      ]),
      [
        ['foo', 'default', ['retries'], [], ['limit', 'token']],
        ['foo', 'dev', ['retries'], [], ['limit', 'token']],
      ],
      'bar and every other environment are unchanged',
    );
    assert.equal(body.impact.skipped, 0);
    assert.ok(!text.includes('secret'), 'no value is shown');
  });

  it("answers Spring's array without the parameter, and 400 naming a malformed one", async () => {
    await remote.commit({ 'bar.yml': 'rate: 2\n' });
    const plain = await push(server, '', ['bar.yml']);
    assert.deepEqual(await plain.json(), ['bar']);
    const malformed = await push(server, '?impact=maybe', ['bar.yml']);
    assert.equal(malformed.status, 400);
    const error = (await malformed.json()) as { code: string; message: string };
    assert.equal(error.code, 'CONFBUS_BAD_QUERY_PARAMETER');
    assert.match(error.message, /'impact' must be true or false/);
  });
});
