// A console bus refresh the broker refuses is 503 CONFBUS_CONSOLE_PUBLISH_FAILED, never a silent 202: the server's
// own RabbitMQ user first loses the right to publish to the bus exchange (connected, but each publish refused),
// then every right (reconnects refused). Nothing is recorded as published; once the broker accepts again, so
// does the console.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestRabbitUser, createTestRabbitUser } from '@confbus/testkit/rabbit-user';
import { RABBIT_HOST, type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface ErrorBody {
  status: number;
  code: string;
  message: string;
}

describe('console bus refresh the broker refuses', () => {
  let remote: GitRemote;
  let vhost: TestVhost;
  let user: TestRabbitUser;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'orders.yml': 'limit: 1\n' });
    vhost = await createTestVhost();
    user = await createTestRabbitUser(vhost.name);
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.bus.enabled': 'true',
      'spring.rabbitmq.host': RABBIT_HOST,
      'spring.rabbitmq.virtual-host': vhost.name,
      'spring.rabbitmq.username': user.username,
      'spring.rabbitmq.password': user.password,
    });
    await waitFor('the server on the bus', () => server.server.bus?.connected === true);
  });

  after(async () => {
    await server?.stop();
    await user?.remove().catch(() => undefined);
    await vhost?.remove();
    await remote?.remove();
  });

  const refresh = async (): Promise<{ status: number; body: ErrorBody }> => {
    const session = (await server.get('/-/console/api/session')).json() as { csrfToken: string };
    const response = await fetch(`${server.base}/-/console/api/bus-refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-confbus-csrf': session.csrfToken },
      body: JSON.stringify({ target: 'application', application: 'orders' }),
    });
    return { status: response.status, body: (await response.json()) as ErrorBody };
  };
  const published = async () =>
    ((await server.get('/-/console/api/refresh-events')).json() as { total: number }).total;

  it('answers 503 when the broker refuses the publish on a live connection', async () => {
    // Its queue may still be bound (write on the queue), but the bus exchange takes nothing from it.
    await user.setPermissions('.*', '^springCloudBus\\.anonymous\\.', '.*');
    const reconnects = server.server.bus!.stats.reconnects;
    await user.closeConnections(); // the permissions apply to the connection it makes next
    await waitFor(
      'the server back on the bus with the narrower rights',
      () => server.server.bus!.stats.reconnects > reconnects && server.server.bus!.connected,
      { timeoutMs: 60_000 },
    );
    const refused = await refresh();
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'CONFBUS_CONSOLE_PUBLISH_FAILED');
    assert.match(
      refused.body.message,
      /The refresh for orders:\*\* could not be published: .*(refused|403)/i,
    );
    assert.equal(await published(), 0, 'nothing recorded as published');
  });

  it('answers 503 while the broker refuses the connection, and 202 once it accepts again', async () => {
    await user.revoke();
    await user.closeConnections();
    await waitFor('the server off the bus', () => server.server.bus!.connected === false, {
      timeoutMs: 60_000,
    });
    const refused = await refresh();
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'CONFBUS_CONSOLE_PUBLISH_FAILED');
    assert.match(refused.body.message, /not connected to the broker; nothing was published/);

    await user.restore();
    await waitFor('the server back on the bus', () => server.server.bus!.connected, { timeoutMs: 90_000 });
    const accepted = await refresh();
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    assert.equal(await published(), 1);
  });
});
