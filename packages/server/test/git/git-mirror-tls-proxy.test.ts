// skip-ssl-validation against a real https git server with a self-signed certificate, and proxy.http.*
// through a real forward proxy that requires credentials: both reach git through its environment, and the
// proxy password never shows in logs, health or errors.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGitHttpServer, type GitHttpServer } from '@confbus/testkit/git-http';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { startHttpProxy, type HttpProxy } from '@confbus/testkit/http-proxy';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { selfSignedCertificate } from '@confbus/testkit/tls-certificate';
import { GitMirror, type GitMirrorOptions, RepositoryUnavailableError } from '../../src/git/index.js';
import { proxyFor } from '../../src/git/upstream-transport.js';
import { captureLogger } from './helpers.js';

describe('GitMirror: skip-ssl-validation and proxy', () => {
  let remote: GitRemote;
  let base: { path: string; remove: () => Promise<void> };
  let https: GitHttpServer;
  let http: GitHttpServer;
  let proxy: HttpProxy;
  const proxyPassword = 'pr0xy-Secret';
  const mirrors: GitMirror[] = [];
  let n = 0;
  const savedNoProxy = { NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy };
  const open = (options: Partial<GitMirrorOptions> & { uri: string }) => {
    const mirror = new GitMirror({
      basedir: join(base.path, `m${n++}`),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger: captureLogger(),
      ...options,
    });
    mirrors.push(mirror);
    return mirror;
  };

  before(async () => {
    // A NO_PROXY of the machine could exempt 127.0.0.1 from the proxy under test.
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'a: 1\n' });
    base = await makeTempDir();
    https = await startGitHttpServer(dirname(remote.path), { tls: await selfSignedCertificate() });
    http = await startGitHttpServer(dirname(remote.path));
    proxy = await startHttpProxy({ username: 'squid', password: proxyPassword });
  });
  after(async () => {
    Object.assign(process.env, savedNoProxy);
    for (const [name, value] of Object.entries(savedNoProxy))
      if (value === undefined) delete process.env[name];
    await Promise.all(mirrors.map((m) => m.close()));
    await https?.stop();
    await http?.stop();
    await proxy?.stop();
    await remote?.remove();
    await base?.remove();
  });

  it('a self-signed https server is refused with curl’s reason, and served with skip-ssl-validation', async () => {
    const strict = open({ uri: https.url('config-repo.git') });
    await assert.rejects(strict.start(), (e: unknown) => {
      assert.ok(e instanceof RepositoryUnavailableError);
      assert.match(
        e.message,
        /unable to access .*(server certificate verification failed|SSL certificate problem)/,
      );
      return true;
    });
    const lenient = open({ uri: https.url('config-repo.git'), skipSslValidation: true });
    assert.ok((await lenient.resolve('master')).commit);
  });

  it('proxy.http: requests go through the proxy with its credentials; the password never shows', async () => {
    const logger = captureLogger();
    const viaProxy = { host: '127.0.0.1', port: proxy.port, username: 'squid', password: proxyPassword };
    const mirror = open({ uri: http.url('config-repo.git'), proxy: { http: viaProxy }, logger });
    assert.ok((await mirror.resolve('master')).commit);
    assert.ok(proxy.forwarded.some((url) => url.startsWith(http.url('config-repo.git'))));
    assert.ok(proxy.authorizations.some((a) => a?.startsWith('Basic ')));

    const wrong = open({
      uri: http.url('config-repo.git'),
      proxy: { http: { ...viaProxy, password: `${proxyPassword}-wrong` } },
      logger,
    });
    let message = '';
    await assert.rejects(wrong.start(), (e: unknown) => {
      message = String(e);
      return e instanceof RepositoryUnavailableError;
    });
    assert.match(message, /407/);
    const everything = `${message}\n${logger.text()}\n${JSON.stringify(mirror.health())}`;
    assert.ok(!everything.includes(proxyPassword), 'proxy password leaked');
  });

  it('proxyFor: by scheme, non-proxy-hosts honoured, credentials encoded', () => {
    const proxies = {
      http: {
        host: 'p',
        port: 3128,
        username: 'u@x',
        password: 'p:w',
        nonProxyHosts: '*.internal|localhost',
      },
      https: { host: 's' },
    };
    assert.equal(proxyFor('http://git.example.com/r.git', proxies), 'http://u%40x:p%3Aw@p:3128');
    assert.equal(proxyFor('https://git.example.com/r.git', proxies), 'http://s:80');
    assert.equal(proxyFor('http://git.internal/r.git', proxies), undefined);
    assert.equal(proxyFor('http://localhost/r.git', proxies), undefined);
    assert.equal(proxyFor('ssh://git.example.com/r.git', proxies), undefined);
  });
});
