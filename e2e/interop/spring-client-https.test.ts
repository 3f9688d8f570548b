/**
 * A real Spring Boot application (interop/spring-client, Spring Cloud 2025.1) fetching from a confbus server over
 * HTTPS with mutual TLS: Spring's own `spring.cloud.config.tls.*` key store (PKCS12 made by openssl) and trust
 * store (PKCS12 made by keytool), against confbus's `server.ssl.*` with `client-auth=need`. Without its key store
 * the same app cannot start (fail-fast): the server really asked for the certificate.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ConfigServer, createConfigServer, resolveServerSettings } from '@confbus/server';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { keytoolAvailable } from '@confbus/testkit/key-stores';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { buildSpringPeer, spawnSpringApp, startSpringApp } from '@confbus/testkit/spring-peers';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { TlsAuthority } from '@confbus/testkit/tls-authority';
import pino from 'pino';
import { type Group, getJsonOk, skipWithoutJava, springRabbitSettings } from './support/spring-fleet.js';

describe(
  'a Spring Boot app fetches from confbus over mutual TLS',
  { skip: skipWithoutJava(keytoolAvailable()) },
  () => {
    let jar: string;
    let dir: TempDir;
    let vhost: TestVhost;
    let server: ConfigServer;
    let common: Record<string, string | number | boolean>;

    before(async () => {
      jar = await buildSpringPeer('spring-client');
      dir = await makeTempDir('confbus-interop-https-');
      vhost = await createTestVhost();
      const ca = await TlsAuthority.create(dir.path);
      const serverCert = await ca.issue('localhost', { file: 'server' });
      const serverStore = await ca.pkcs12(serverCert, 'server.p12', 'serverpw');
      const clientStore = await ca.pkcs12(
        await ca.issue('sample', { client: true }),
        'client.p12',
        'clientpw',
      );
      const trustStore = await ca.trustStore('trust.p12', 'trustpw');
      const args = Object.entries({
        'server.port': '0',
        'server.address': '127.0.0.1',
        'confbus.server.sample-repository': 'true',
        'spring.cloud.config.server.git.basedir': `${dir.path}/mirror`,
        'server.ssl.key-store': serverStore,
        'server.ssl.key-store-password': 'serverpw',
        'server.ssl.client-auth': 'need',
        'server.ssl.trust-store': trustStore,
        'server.ssl.trust-store-password': 'trustpw',
      }).map(([key, value]) => `--${key}=${value}`);
      server = await createConfigServer({
        settings: resolveServerSettings({ args, env: {} }),
        logger: pino({ level: 'silent' }),
        cwd: dir.path,
      });
      const base = (await server.listen()).replace('127.0.0.1', 'localhost');
      common = {
        ...springRabbitSettings(vhost.name),
        'spring.config.import': `configserver:${base}`,
        'spring.profiles.active': 'dev',
        'spring.cloud.config.fail-fast': true,
        'spring.cloud.config.tls.enabled': true,
        // Spring reads these as resources: file: makes them paths, not class-path entries.
        'spring.cloud.config.tls.trust-store': `file:${trustStore}`,
        'spring.cloud.config.tls.trust-store-password': 'trustpw',
        'spring.cloud.config.tls.trust-store-type': 'PKCS12',
        'spring.cloud.config.tls.key-store': `file:${clientStore}`,
        'spring.cloud.config.tls.key-store-password': 'clientpw',
        'spring.cloud.config.tls.key-store-type': 'PKCS12',
        // Spring does not fall back to the store password for the key (confbus does): it must be given.
        'spring.cloud.config.tls.key-password': 'clientpw',
      };
    });

    after(async () => {
      await stopAllNodeProcesses();
      await server?.close();
      await vhost?.remove();
      await dir?.remove();
    });

    it('boots with the configuration served over HTTPS', async () => {
      const app = await startSpringApp(jar, common);
      assert.deepEqual(await getJsonOk<Group>(app.url, '/dynamic'), {
        profile: 'dev',
        comment: 'development settings for sample',
      });
      await app.stop();
    });

    it('cannot start without its client certificate', async () => {
      const withoutKey = Object.fromEntries(
        Object.entries(common).filter(([key]) => !key.startsWith('spring.cloud.config.tls.key-store')),
      );
      const child = spawnSpringApp(jar, {
        ...withoutKey,
        'spring.cloud.config.retry.max-attempts': 1,
      });
      assert.notEqual(await child.exited, 0);
      assert.ok(
        child.lines.some((line) => /SSL|handshake|certificate|Connection reset|Broken pipe/i.test(line)),
        `the log names the TLS failure:\n${child.lines.slice(-30).join('\n')}`,
      );
    });
  },
);
