/**
 * Staged rollouts and Spring apps (issue #27): a real Spring Boot app (interop/spring-client) that sends
 * confbus's instance headers through Spring Cloud Config's own `spring.cloud.config.headers.*` follows its wave,
 * and one without them is served the stable commit while the rollout runs. Real processes: the confbus server
 * and both apps on a RabbitMQ vhost of their own, a real Git remote. Spring apps do not report health: they are
 * served by their wave, never judged (docs/rollouts.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { waitFor } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type SpringProcess, buildSpringPeer, startSpringApp } from '@confbus/testkit/spring-peers';
import { type RunningServer, startServer, stopFleet } from '../support/fleet.js';
import {
  type Group,
  getJsonOk,
  post,
  skipWithoutJava,
  springConfigImport,
  springRabbitSettings,
} from './support/spring-fleet.js';

const yaml = (comment: string) => `group:\n  profile: base\n  comment: ${comment}\n`;

interface RolloutView {
  id: string;
  status: string;
  instances: Array<{ id: string; tags: Record<string, string>; side: 'from' | 'to'; served: string[] }>;
}

describe(
  'a Spring Boot app follows its rollout wave through its headers',
  { skip: skipWithoutJava() },
  () => {
    let remote: GitRemote;
    let vhost: TestVhost;
    let server: RunningServer;
    let withHeaders: SpringProcess;
    let withoutHeaders: SpringProcess;
    let commitA: string;

    const comment = async (app: SpringProcess) => (await getJsonOk<Group>(app.url, '/dynamic')).comment;
    const rollout = async (id: string) => getJsonOk<RolloutView>(server.base, `/-/rollouts/${id}`);
    const send = async (path: string, body: unknown) => {
      const response = await fetch(`${server.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as RolloutView;
      assert.ok(response.status === 200 || response.status === 201, JSON.stringify(json));
      return json;
    };

    before(async () => {
      const jar = await buildSpringPeer('spring-client');
      vhost = await createTestVhost();
      remote = await createGitRemote();
      commitA = await remote.commit({ 'sample.yml': yaml('first') });
      server = await startServer({
        'spring.cloud.config.server.git.uri': remote.url,
        'spring.cloud.bus.enabled': true,
        ...springRabbitSettings(vhost.name),
        'confbus.server.rollouts.tick-ms': 250,
      });
      const common = { ...springRabbitSettings(vhost.name), ...springConfigImport(server.base) };
      // Two JVMs at once: each waits for its own config import, so they start side by side.
      [withHeaders, withoutHeaders] = await Promise.all([
        startSpringApp(jar, {
          ...common,
          'spring.cloud.config.headers.X-Confbus-Instance-Id': 'spring-canary-1',
          'spring.cloud.config.headers.X-Confbus-Instance-Tags': 'zone=spring',
        }),
        startSpringApp(jar, common),
      ]);
    });

    after(async () => {
      await stopAllNodeProcesses();
      await stopFleet();
      await vhost?.remove();
      await remote?.remove();
    });

    it('the app with the headers gets its wave’s commit; the one without stays on the stable commit', async () => {
      assert.equal(await comment(withHeaders), 'first');
      assert.equal(await comment(withoutHeaders), 'first');
      // B on a side branch, the rollout started, then master moved: from then on the waves decide.
      const commitB = await remote.commit({ 'sample.yml': yaml('second') }, { branch: 'next' });
      const started = await send('/-/rollouts', {
        application: 'sample',
        from: commitA,
        to: commitB,
        // Wave 1 is one instance, picked among those seen: the app with the headers (the other one is nobody).
        waves: '1,100%',
        bakeSeconds: 3600,
      });
      await remote.git('push', '--quiet', 'origin', `${commitB}:refs/heads/master`);

      // It fetched at the start's announcement and was served A; picked at the next tick, it is told on the bus.
      await waitFor(
        'the Spring app with the headers serves B',
        async () => (await comment(withHeaders)) === 'second',
      );
      const view = await rollout(started.id);
      const seen = view.instances.find((instance) => instance.id === 'spring-canary-1');
      assert.deepEqual(
        seen && { tags: seen.tags, side: seen.side, served: seen.served },
        { tags: { zone: 'spring' }, side: 'to', served: [commitA, commitB] },
        'the server knows the Spring app by the id and tags its headers carry: A before its pick, then B',
      );
      assert.deepEqual(
        view.instances.map((instance) => instance.id),
        ['spring-canary-1'],
        'a fetch without the id header is nobody in the rollout',
      );

      // A refresh makes the app without the headers fetch again: the label's head is B, it is still served A.
      assert.equal(await post(withoutHeaders.url, '/actuator/refresh'), 200);
      assert.equal(await comment(withoutHeaders), 'first');
      // The app with the headers fetching again stays on its wave's commit.
      assert.equal(await post(withHeaders.url, '/actuator/refresh'), 200);
      assert.equal(await comment(withHeaders), 'second');

      // Promoted: everyone is served B, announced on the bus, the app without the headers too.
      await send(`/-/rollouts/${started.id}/promote`, { reason: 'test' });
      await waitFor(
        'the Spring app without the headers serves B once promoted',
        async () => (await comment(withoutHeaders)) === 'second',
      );
      assert.equal((await rollout(started.id)).status, 'completed');
    });
  },
);
