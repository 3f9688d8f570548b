// Real tier: a NestJS application (compiled by tsc, test/app/) on Express and on Fastify, configured by
// `confbus server` (a child process) from a git remote; a push, then POST /actuator/refresh on the application.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  getJson,
  postJson,
  startConfbusServer,
  type ConfbusProcess,
} from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { shopAppModule } from './app/dist/shop-app.js';

const platforms = {
  express: () => new ExpressAdapter(),
  fastify: () => new FastifyAdapter(),
} as const;

const shopYml = (text: string, currency = 'EUR') =>
  `greeting:\n  text: ${text}\n  repeat: "2"\nshop:\n  currency: ${currency}\n  max-items: 10\nserver:\n  port: 8080\n`;

describe('a NestJS application configured by confbus server', () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({
      'shop-express.yml': shopYml('Hi'),
      'shop-fastify.yml': shopYml('Hi'),
      'shop-prefixed.yml': shopYml('Hi'),
    });
    server = await startConfbusServer({ gitUri: remote.url, basedir: `${temp.path}/mirror`, cwd: temp.path });
  });
  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  for (const [platform, adapter] of Object.entries(platforms)) {
    describe(`on ${platform}`, () => {
      const application = `shop-${platform}`;
      let app: INestApplication;
      let url: string;

      before(async () => {
        const module = shopAppModule({ serverUrl: server.url, application, cwd: temp.path });
        app = await NestFactory.create(module, adapter(), { logger: false, abortOnError: false });
        await app.listen(0, '127.0.0.1');
        url = await app.getUrl();
      });
      after(async () => {
        await app?.close();
      });

      it('boots with the configuration loaded and validated, and serves the actuator endpoints', async () => {
        const greeting = await getJson(`${url}/greeting`);
        assert.equal(greeting.status, 200);
        assert.deepEqual(greeting.body, {
          startup: 'Hi',
          live: 'HiHi',
          shop: { currency: 'EUR', maxItems: 10 },
          maxItems: 10,
          port: 8080,
        });
        const health = await getJson(`${url}/actuator/health`);
        assert.equal(health.status, 200);
        assert.equal((health.body as { status: string }).status, 'UP');
        const env = (await getJson(`${url}/actuator/env`)).body as {
          propertySources: Array<{ name: string }>;
        };
        assert.ok(env.propertySources.some((source) => source.name.includes(`${application}.yml`)));
        const index = (await getJson(`${url}/actuator`)).body as { _links: Record<string, unknown> };
        assert.deepEqual(Object.keys(index._links).sort(), ['echo', 'env', 'health', 'refresh', 'self']);
        assert.equal((await getJson(`${url}/actuator/prometheus`)).status, 404, 'not exposed');
        assert.equal((await getJson(`${url}/actuator/refresh`)).status, 405, 'refresh is POST only');
        const sub = await getJson(`${url}/actuator/env/some.key`);
        assert.deepEqual(
          [sub.status, (sub.body as { message: string }).message],
          [404, 'No management endpoint is exposed at /actuator/env/some.key'],
        );
      });

      it("serves the application's own endpoint with the JSON body the platform parsed", async () => {
        const post = (body: string) =>
          fetch(`${url}/actuator/echo`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
        const echoed = await post('{"message":"hi","n":[1,2]}');
        assert.deepEqual([echoed.status, await echoed.json()], [200, { message: 'hi', n: [1, 2] }]);
        const refused = await post('{"other":1}');
        assert.equal(refused.status, 422);
        assert.match(
          ((await refused.json()) as { message: string }).message,
          /needs a JSON body with a message/,
        );
      });

      it('follows a push after POST /actuator/refresh: live reads, the namespace and changes$', async () => {
        await remote.commit({ [`${application}.yml`]: shopYml('Hello', 'USD') });
        const refresh = await postJson(`${url}/actuator/refresh`);
        assert.equal(refresh.status, 200);
        assert.deepEqual(refresh.body, ['config.client.version', 'greeting.text', 'shop.currency']);
        assert.deepEqual((await getJson(`${url}/greeting`)).body, {
          startup: 'Hi',
          live: 'HelloHello',
          shop: { currency: 'USD', maxItems: 10 },
          maxItems: 10,
          port: 8080,
        });
        const changes = (await getJson(`${url}/greeting/changes`)).body as Array<{ path: string }>;
        assert.deepEqual(
          changes.filter((change) => change.path !== 'config.client.version'),
          [
            { path: 'greeting.text', oldValue: 'Hi', newValue: 'Hello' },
            { path: 'shop.currency', oldValue: 'EUR', newValue: 'USD' },
          ],
        );
      });

      it('refuses a refresh the schema rejects, naming the key, and keeps serving the previous values', async () => {
        await remote.commit({ [`${application}.yml`]: shopYml('Bonjour', 'GBP') });
        const refresh = await postJson(`${url}/actuator/refresh`);
        assert.equal(refresh.status, 500);
        assert.match((refresh.body as { message: string }).message, /shop\.currency/);
        const greeting = (await getJson(`${url}/greeting`)).body as { live: string; shop: unknown };
        assert.deepEqual([greeting.live, greeting.shop], ['HelloHello', { currency: 'USD', maxItems: 10 }]);
        const health = (await getJson(`${url}/actuator/health`)).body as {
          details: { lastRefreshError?: string };
        };
        assert.match(health.details.lastRefreshError ?? '', /shop\.currency/);
      });
    });
  }

  for (const [platform, adapter] of Object.entries(platforms)) {
    it(`mounts the actuator at its path under the global prefix (${platform})`, async () => {
      const module = shopAppModule({
        serverUrl: server.url,
        application: 'shop-prefixed',
        cwd: temp.path,
        actuatorPath: 'manage',
      });
      const app = await NestFactory.create(module, adapter(), { logger: false, abortOnError: false });
      try {
        app.setGlobalPrefix('api');
        await app.listen(0, '127.0.0.1');
        const url = await app.getUrl();
        const health = await getJson(`${url}/api/manage/health`);
        assert.deepEqual([health.status, (health.body as { status: string }).status], [200, 'UP']);
        const index = (await getJson(`${url}/api/manage`)).body as { _links: { self: { href: string } } };
        assert.equal(index._links.self.href, '/api/manage');
        assert.equal((await getJson(`${url}/actuator/health`)).status, 404);
      } finally {
        await app.close();
      }
    });
  }
});
