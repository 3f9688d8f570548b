/**
 * busenv and busshutdown between two `confbus sample-client` processes (the CLI's entry point, as users run
 * it), addressed to one of them: the addressed one applies the value (and refreshes) or exits with 0, the
 * sender keeps its state. The same commands against a real Spring Boot app: e2e/interop/spring-bus-commands.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { busSettings, postJson } from '../support/bus-fleet.js';
import { type RunningClient, startClient, startServer, stopFleet, waitUntil } from '../support/fleet.js';

const dev = (comment: string) => `group:\n  profile: dev\n  comment: ${comment}\n`;

describe('busenv and busshutdown between confbus sample clients', () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let sender: RunningClient;
  let target: RunningClient;

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': dev('v1') });
    const server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...busSettings(vhost.name),
    });
    const settings = {
      'spring.cloud.config.uri': server.base,
      'spring.profiles.active': 'dev',
      ...busSettings(vhost.name),
    };
    [sender, target] = await Promise.all([startClient(settings), startClient(settings)]);
    for (const client of [sender, target]) {
      await waitUntil('the client bus up', async () => {
        const health = (await client.get('/actuator/health')).json as {
          components?: { bus?: { status?: string } };
        };
        return health.components?.bus?.status === 'UP';
      });
    }
  });

  after(async () => {
    await stopFleet();
    await vhost?.remove();
    await remote?.remove();
  });

  const comment = async (client: RunningClient) =>
    ((await client.get('/dynamic')).json as { comment: string | null }).comment;
  const destinationOf = (client: RunningClient) => `sample:dev:${new URL(client.base).port}:**`;

  it('busenv addressed to one client sets the value there, which refreshes; the sender keeps its own', async () => {
    const status = await postJson(sender.base, `/actuator/busenv/${destinationOf(target)}`, {
      name: 'group.comment',
      value: 'set-by-busenv',
    });
    assert.equal(status, 204);
    await waitUntil(
      'the target serving the busenv value',
      async () => (await comment(target)) === 'set-by-busenv',
    );
    assert.equal(await comment(sender), 'v1');
  });

  it(
    'busshutdown addressed to one client makes that process exit with 0; the sender keeps running',
    { timeout: 60_000 },
    async () => {
      const status = await postJson(sender.base, `/actuator/busshutdown/${destinationOf(target)}`, {});
      assert.equal(status, 204);
      assert.equal(await target.process.exited, 0);
      assert.equal((await sender.get('/actuator/health')).status, 200);
    },
  );
});
