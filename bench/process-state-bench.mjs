// Process state (packages/server/src/support/next-tick-warm-up.ts): the CPU a cached GET costs in fresh
// `confbus server` processes, each after the contract gate's verdicts on the gate benchmark's repository (500
// applications × 3 profiles, a contract each), with the server's nextTick warm-up and without it
// (confbus.server.next-tick-warm-up=false), started alternately so both see the same machine. Without it some processes
// land in a state where every request costs about a third more for their whole life; the warm-up is there to
// keep every process in the fast one. Run alone: `npx tsc -b && node bench/process-state-bench.mjs`
// (CONFBUS_STATE_BENCH_SERVERS per side, default 5).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { processCpuSeconds } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';
import { repositoryFiles } from './contracts-bench.mjs';

export const title = 'Process state (nextTick warm-up)';

const SERVERS = Number(process.env.CONFBUS_STATE_BENCH_SERVERS ?? 5);
const PUSHES = 5;

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor((xs.length - 1) / 2)];

/** POSTs a push webhook; resolves once /monitor answered (the gate's verdict given). */
async function webhook(base) {
  const response = await globalThis.fetch(`${base}/monitor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    body: JSON.stringify({ commits: [{ modified: ['application.yml'] }] }),
  });
  await response.text();
  if (![200, 503].includes(response.status)) throw new Error(`/monitor answered ${response.status}`);
}

/** µs of server CPU per cached GET, over 6 s after a 2 s warm-up. */
async function cpuPerRequest(server) {
  const url = `${server.url}/app7/prod`;
  await autocannon({ url, connections: 50, duration: 2 });
  const before = processCpuSeconds(server.child.pid);
  const result = await autocannon({ url, connections: 50, duration: 6 });
  return ((processCpuSeconds(server.child.pid) - before) * 1e6) / result.requests.total;
}

export async function run({ log }) {
  const temp = await makeTempDir('confbus-bench-state-');
  const files = repositoryFiles(8080);
  const repo = await createConfigRepo(temp.path, 'gate', files);
  const results = { on: [], off: [] };
  let pushed = 0;
  for (let i = 0; i < 2 * SERVERS; i++) {
    const side = i % 2 === 0 ? 'on' : 'off';
    const server = await startConfbusServer({
      uri: repo.path,
      basedir: join(temp.path, `server-${i}`),
      refreshRate: 3600,
      extraArgs: [
        '--spring.cloud.bus.enabled=false',
        ...(side === 'off' ? ['--confbus.server.next-tick-warm-up=false'] : []),
      ],
    });
    try {
      await webhook(server.url);
      for (let push = 0; push < PUSHES; push++) {
        pushed++;
        await repo.push({
          'application.yml': files['application.yml'].replace('8080', String(9000 + pushed)),
        });
        await webhook(server.url);
      }
      results[side].push(await cpuPerRequest(server));
      log(`server ${i + 1}/${2 * SERVERS} (warm-up ${side}): ${fmt(results[side].at(-1))} µs per request`);
    } finally {
      await server.stop();
    }
  }
  const spread = (xs) => Math.max(...xs) / Math.min(...xs);
  const rows = [
    {
      measure: `cached GET server CPU per request after ${PUSHES} verdicts, ${SERVERS} fresh processes each: median µs (worst)`,
      confbus: `${fmt(median(results.on))} (${fmt(Math.max(...results.on))}) with the warm-up`,
      baseline: `${fmt(median(results.off))} (${fmt(Math.max(...results.off))}) without`,
      ratio: `${fmt(Math.max(...results.off) / Math.max(...results.on))}x (worst)`,
      goal: 'report',
      pass: null,
    },
    {
      measure: 'spread of CPU per request across those processes, worst / best',
      confbus: `${fmt(spread(results.on))} with the warm-up`,
      baseline: `${fmt(spread(results.off))} without`,
      ratio: '',
      goal: 'report',
      pass: null,
    },
  ];
  const lines = [
    `- with the warm-up: ${results.on.map((us) => fmt(us)).join(', ')} µs`,
    `- without: ${results.off.map((us) => fmt(us)).join(', ')} µs`,
  ];
  return { rows, sections: [{ title: 'Process state (bench/process-state-bench.mjs)', lines }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
