/**
 * docs/metrics.md against what is served: a `confbus server` and a `confbus sample-client`, both on the bus (so
 * every metric family is registered), are scraped, and each table of the page must name exactly what its
 * reader gets: every family the server exposes is in "Both server and client" or "Config server", every family
 * the client exposes in "Both server and client" or "Client", and every row names something that is exposed.
 * `process_*` and `nodejs_*` rows stand for prom-client's default metrics.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { metricFamilies } from '@confbus/testkit/prometheus-text';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { busSettings } from '../support/bus-fleet.js';
import {
  type RunningClient,
  type RunningServer,
  startClient,
  startServer,
  stopFleet,
} from '../support/fleet.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BOTH = 'Both server and client';

/** Metric names (or `prefix_*` patterns) in the first column of each `## section`'s table. */
async function documentedMetrics(): Promise<Map<string, string[]>> {
  const page = await readFile(join(root, 'docs/metrics.md'), 'utf8');
  const sections = new Map<string, string[]>();
  let section = '';
  for (const line of page.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) section = heading[1] as string;
    else if (line.startsWith('| `')) {
      const names = [...(line.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
      sections.set(section, [...(sections.get(section) ?? []), ...names]);
    }
  }
  return sections;
}

function covers(documented: string, exposed: string): boolean {
  return documented.endsWith('*') ? exposed.startsWith(documented.slice(0, -1)) : documented === exposed;
}

/** What the exposed families and the page's rows for them disagree on. */
function differences(exposed: readonly string[], documented: readonly string[]) {
  return {
    undocumented: exposed.filter((name) => !documented.some((row) => covers(row, name))),
    notExposed: documented.filter((row) => !exposed.some((name) => covers(row, name))),
  };
}

describe('docs/metrics.md', () => {
  let remote: GitRemote;
  let vhost: TestVhost;
  let server: RunningServer;
  let client: RunningClient;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'sample.yml': 'group:\n  comment: one\n' });
    vhost = await createTestVhost();
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...busSettings(vhost.name),
    });
    client = await startClient({
      'spring.cloud.config.uri': server.base,
      'management.endpoints.web.exposure.include': 'prometheus',
      ...busSettings(vhost.name),
    });
  });
  after(async () => {
    await stopFleet();
    await vhost?.remove();
    await remote?.remove();
  });

  const exposed = async (base: string) => {
    const response = await fetch(`${base}/actuator/prometheus`);
    assert.equal(response.status, 200);
    return [...metricFamilies(await response.text()).keys()];
  };

  it('lists every metric the server exposes, and nothing it does not', async () => {
    const page = await documentedMetrics();
    const rows = [...(page.get(BOTH) ?? []), ...(page.get('Config server') ?? [])];
    const families = await exposed(server.base);
    assert.ok(families.includes('confbus_bus_events_published_total'), 'the bus is on');
    assert.deepEqual(differences(families, rows), { undocumented: [], notExposed: [] });
  });

  it('lists every metric a client on the bus exposes, and nothing it does not', async () => {
    const page = await documentedMetrics();
    const rows = [...(page.get(BOTH) ?? []), ...(page.get('Client') ?? [])];
    const families = await exposed(client.base);
    assert.ok(families.includes('confbus_bus_events_published_total'), 'the bus is on');
    assert.deepEqual(differences(families, rows), { undocumented: [], notExposed: [] });
  });
});
