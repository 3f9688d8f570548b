// DNS rebinding against the console's actions: a page on another site whose name now points at the server is
// same-origin with itself, so its request carries that site's Host, a matching Origin and Sec-Fetch-Site:
// same-origin, and it can read the CSRF token. Only the Host tells it apart: actions under a name that is not the
// server's are refused with 403 CONFBUS_CONSOLE_HOST; loopback names, IP literals and
// confbus.console.allowed-hosts pass (to the next check: here the bus is off, so 503 BUS_DISABLED).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { AllowedHosts, hostnameOf } from '../../src/console/allowed-hosts.js';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Answer {
  status: number;
  body: { code?: string; message?: string; status?: number };
}

describe('console actions: the Host header', () => {
  let remote: GitRemote;
  let server: TestServer;
  let token: string;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'greeting: hello\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'confbus.console.allowed-hosts': 'config.example.com,.corp.example',
    });
    token = ((await server.get('/-/console/api/session')).json() as { csrfToken: string }).csrfToken;
  });
  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  /** POST bus-refresh as the page at `site` sends it, with `Host: host` (node:http: fetch may not set Host). */
  function postAs(host: string, site: string): Promise<Answer> {
    const url = new URL(`${server.base}/-/console/api/bus-refresh`);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            host,
            origin: site,
            'sec-fetch-site': 'same-origin',
            'content-type': 'application/json',
            'x-confbus-csrf': token,
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ target: 'all' }));
    });
  }

  it('refuses an action under another site’s name, with Origin and Sec-Fetch-Site to match: 403 naming the setting', async () => {
    const port = new URL(server.base).port;
    for (const host of [`evil.example:${port}`, `evil.example`, `config.example.com.evil.example:${port}`]) {
      const answer = await postAs(host, `http://${host}`);
      assert.equal(answer.status, 403, host);
      assert.equal(answer.body.code, 'CONFBUS_CONSOLE_HOST', host);
      assert.match(answer.body.message ?? '', /confbus\.console\.allowed-hosts/);
    }
  });

  it('accepts loopback names, IP literals and the configured names', async () => {
    const port = new URL(server.base).port;
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `console.localhost:${port}`,
      'config.example.com',
      `ops.corp.example:${port}`,
    ]) {
      const answer = await postAs(host, `http://${host}`);
      assert.equal(
        answer.body.code,
        'CONFBUS_CONSOLE_BUS_DISABLED',
        `${host}: ${JSON.stringify(answer.body)}`,
      );
    }
  });

  it('AllowedHosts: names, domains, any; malformed Host headers are refused', () => {
    const hosts = new AllowedHosts(['Config.Example.com', '.corp.example'], '0.0.0.0');
    for (const allowed of [
      'config.example.com:443',
      'CONFIG.EXAMPLE.COM.',
      'corp.example',
      'a.b.corp.example',
    ])
      assert.equal(hosts.allows(allowed), true, allowed);
    for (const refused of ['example.com', 'evilcorp.example', 'a@localhost', 'localhost/x', '', undefined])
      assert.equal(hosts.allows(refused), false, String(refused));
    assert.equal(new AllowedHosts([], 'config.internal').allows('config.internal:8888'), true);
    assert.equal(new AllowedHosts(['*'], '0.0.0.0').allows('anything.example'), true);
    assert.equal(hostnameOf('[::1]:8888'), '::1');
  });
});
