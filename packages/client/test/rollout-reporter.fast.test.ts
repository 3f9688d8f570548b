import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { CaptureLogger } from './support/capture-logger.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

/** A config server double: serves `served` per instance with the rollout header, records reports, answers `told`. */
describe('rollout reports: a client told by its fetch answer reports its health and follows the answers', () => {
  const reports: Array<{ headers: IncomingHttpHeaders; body: Record<string, unknown> }> = [];
  let told = A;
  let interval = 50;
  let url: string;
  let temp: { path: string; remove: () => Promise<void> };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/-/rollouts/reports') {
        reports.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ rollout: 'r1', version: told, reportIntervalMs: interval }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-confbus-rollout': 'report' });
      res.end(
        JSON.stringify({
          name: 'orders',
          profiles: ['default'],
          label: null,
          version: told,
          state: null,
          propertySources: [{ name: 'repo/orders.yml', source: { greeting: told === A ? 'a' : 'b' } }],
        }),
      );
    });
  });

  before(async () => {
    temp = await makeTempDir();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await temp.remove();
  });

  it('reports id, version, health and errors; moves when told; stops when told', async () => {
    const client = await ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${url}`,
        '--spring.application.name=orders',
        '--confbus.client.instance-id=orders-1',
        '--confbus.client.watch.enabled=false',
      ],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });
    try {
      let down = false;
      client.registerHealthIndicator('db', () => (down ? 'DOWN' : 'UP'));
      await waitFor('a first report', () => reports.length > 0);
      const first = reports[0]!;
      assert.equal(first.headers['x-confbus-instance-id'], 'orders-1');
      assert.deepEqual(first.body, {
        application: 'orders',
        profiles: ['default'],
        version: A,
        status: 'UP',
        errors: 0,
        rejected: false,
      });
      client.recordError(3);
      down = true;
      await waitFor('the indicator and the errors reported', () =>
        reports.some((r) => r.body.status === 'DOWN' && r.body.errors === 3),
      );
      told = B; // a new wave: this instance moves
      await waitFor('the client fetched B', () => client.getString('greeting') === 'b');
      await waitFor('and reports B', () => reports.some((r) => r.body.version === B));
      interval = 0; // the rollout ended
      await waitFor('reporting stops', () => !client.reportingToRollout);
    } finally {
      await client.close();
    }
  });
});
