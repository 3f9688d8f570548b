/**
 * Server-side request forgery through uri templates (issue 23, item 2): with `{profile}` in a uri's port or
 * `{application}` in its host, a request chose where the server connected — a listener on another port received
 * the git request. Such a uri now stops the start, naming its setting, and no request value reaches another port.
 */
import assert from 'node:assert/strict';
import { type Server, type Socket, createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SettingsError } from '@confbus/core';
import { type GitHttpServer, startGitHttpServer } from '@confbus/testkit/git-http';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { listenOnLoopback } from '@confbus/testkit/loopback';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

/** A TCP listener that counts connections and closes each at once (so a forged request fails fast). */
async function startTrap(): Promise<{ port: number; connections: () => number; stop: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.destroy();
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    connections: () => connections,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('uri templates cannot send the server elsewhere', () => {
  let trap: Awaited<ReturnType<typeof startTrap>>;
  before(async () => {
    trap = await startTrap();
  });
  after(async () => {
    await trap?.stop();
  });

  /** Starts a server on `settings` and, if it starts, sends it `paths`; returns the start error, if any. */
  const tryServer = async (settings: Record<string, string>, paths: string[]): Promise<unknown> => {
    let server: TestServer;
    try {
      server = await startGitTestServer(settings);
    } catch (error) {
      return error;
    }
    try {
      for (const path of paths) await server.get(path);
    } finally {
      await server.stop();
    }
    return undefined;
  };

  it('refuses at start a placeholder in the port or host, naming the setting; the other port hears nothing', async () => {
    const cases: Array<{ settings: Record<string, string>; key: RegExp; part: string; path: string }> = [
      {
        settings: { 'spring.cloud.config.server.git.uri': 'git://127.0.0.1:{profile}/config.git' },
        key: /^spring\.cloud\.config\.server\.git\.uri: /,
        part: 'port',
        path: `/app/${trap.port}`,
      },
      {
        settings: { 'spring.cloud.config.server.git.uri': `http://127.0.0.1:{profile}/config.git` },
        key: /^spring\.cloud\.config\.server\.git\.uri: /,
        part: 'port',
        path: `/app/${trap.port}`,
      },
      {
        settings: {
          'spring.cloud.config.server.git.uri': 'file:///nonexistent/config.git',
          'spring.cloud.config.server.git.repos.evil.uri': `http://{application}:${trap.port}/config.git`,
          'spring.cloud.config.server.git.repos.evil.pattern': '*',
        },
        key: /^spring\.cloud\.config\.server\.git\.repos\.evil\.uri: /,
        part: 'host',
        path: '/127.0.0.1/default',
      },
    ];
    const refusals: unknown[] = [];
    for (const { settings, path } of cases) refusals.push(await tryServer(settings, [path]));
    assert.equal(trap.connections(), 0, 'a request made the server connect to another port');
    cases.forEach(({ settings, key, part }, i) => {
      const refused = refusals[i];
      assert.ok(refused instanceof SettingsError, `${JSON.stringify(settings)} started: ${String(refused)}`);
      assert.match(refused.message, key);
      assert.match(refused.message, new RegExp(`a placeholder in the ${part} would let a request choose`));
      assert.equal(refused.code, 'CONFBUS_BAD_SETTING');
    });
  });

  describe('a template with its placeholder in the path', () => {
    let parent: GitRemote;
    let http: GitHttpServer;
    let server: TestServer;

    before(async () => {
      parent = await createGitRemote('orders');
      await parent.commit({ 'application.yml': 'from: orders\n' });
      http = await startGitHttpServer(parent.path.replace(/\/orders\.git$/, ''));
      server = await startGitTestServer({
        'spring.cloud.config.server.git.uri': `http://127.0.0.1:${http.port}/{application}.git`,
      });
    });
    after(async () => {
      await server?.stop();
      await http?.stop();
      await parent?.remove();
    });

    it('serves the repository the path names, and refuses with 400 a value that could leave the path', async () => {
      const ok = await server.get('/orders/default');
      assert.equal(ok.status, 200, ok.body);
      // Values the request routes accept (names allow @ and +, labels most of git's ref characters) but a uri
      // must not carry: each answer names the value and the placeholder.
      for (const [path, value, token] of [
        [`/orders@127.0.0.1/default`, 'orders@127.0.0.1', 'application'],
        [`/team(_)a+b/default`, 'team/a+b', 'application'],
        [`/caf%C3%A9/default`, 'café', 'application'],
      ] as const) {
        const response = await server.get(path);
        assert.equal(response.status, 400, `${path}: ${response.body}`);
        const body = response.json() as { code: string; message: string };
        assert.equal(body.code, 'CONFBUS_INVALID_REPOSITORY_NAME');
        assert.ok(
          body.message.startsWith(`${JSON.stringify(value)} cannot name a repository ({${token}}`),
          body.message,
        );
      }
      const nested = await server.get('/team(_)orders/default');
      assert.equal(nested.status, 404, `a (_) name fills a sub-folder of the path: ${nested.body}`);
      assert.match(nested.body, /team\/orders\.git/);
      assert.equal(trap.connections(), 0);
    });
  });
});
