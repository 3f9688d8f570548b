// Sixteen real `confbus sample-client` processes, one instance each, on the bus with a `confbus server`: the time
// from a GitHub push webhook to `POST /monitor` until every process serves the pushed value (issue #14: "so that
// 16 sample-client processes all serve a pushed value <= 150 ms after the webhook"), and the CPU the round costs
// each process. Unlike bus-bench.mjs, whose worker processes host many instances each, every instance here pays a
// whole Node process's costs (its own event loop, GC, AMQP connection, HTTP agent), as in a real fleet.
//
// When an instance serves the value is read from its own "Keys refreshed [...]" log line (written once the new
// snapshot is in place; pino's ISO time, ms resolution, the same clock for every process on this machine), so
// nothing polls the instances while they refresh. After each round every process's GET /dynamic is checked once.
// Run alone: `npx tsc -b && node bench/process-fleet-bench.mjs`.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fleetBroker } from './lib/broker-capacity.mjs';
import { totalCpuMs } from './lib/cpu-time.mjs';
import { startConfbusServer, startProcess } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

const { fetch } = globalThis;

export const title = 'Bus (webhook to 16 sample-client processes)';

const PROCESSES = Number(process.env.CONFBUS_PROCESS_FLEET_SIZE ?? 16);
const ROUNDS = Number(process.env.CONFBUS_PROCESS_FLEET_ROUNDS ?? 10);
const WARMUP_ROUNDS = 3;
const GOAL_MS = 150;
const ROUND_DEADLINE_MS = 10_000;
const CONFBUS_BIN = fileURLToPath(new URL('../packages/cli/bin/confbus.js', import.meta.url));

const wallNow = () => performance.timeOrigin + performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const sampleDevYml = (value) => `group:\n  comment: ${value}\n  profile: dev\n`;

/**
 * A `confbus sample-client` process; `refreshedAt` holds the times (epoch ms) of its "Keys refreshed" lines,
 * newest last.
 */
async function startSampleClient(index, { serverUrl, broker, cwd }) {
  const refreshedAt = [];
  const proc = await startProcess({
    name: `sample-client ${index}`,
    command: process.execPath,
    args: [
      CONFBUS_BIN,
      'sample-client',
      '--server.port=0',
      `--spring.cloud.config.uri=${serverUrl}`,
      '--spring.application.name=sample',
      '--spring.profiles.active=dev',
      '--spring.cloud.bus.enabled=true',
      `--spring.cloud.bus.id=sample:dev:${index}`,
      '--spring.rabbitmq.host=127.0.0.1',
      `--spring.rabbitmq.port=${broker.port}`,
      `--spring.rabbitmq.virtual-host=${broker.vhost}`,
    ],
    cwd,
    env: { NODE_ENV: 'production' },
    ready: (line) => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1],
  });
  createInterface({ input: proc.child.stdout }).on('line', (line) => {
    if (!line.includes('Keys refreshed')) return;
    try {
      refreshedAt.push(Date.parse(JSON.parse(line).time));
    } catch {
      // not a JSON log line
    }
  });
  return { url: proc.value, pid: proc.child.pid, refreshedAt, stop: proc.stop };
}

export async function run({ log }) {
  const rows = [];
  const details = [];
  const note = (line) => {
    details.push(line);
    log(line.replace(/^- /, ''));
  };
  const measure = `webhook to all ${PROCESSES} sample-client processes serving, median of per-round worst, ms`;
  const root = await makeTempDir('confbus-process-fleet-');
  const stops = [];
  try {
    const repo = await createConfigRepo(root.path, 'config', {
      'application.yml': 'group:\n  owner: platform\n',
      'sample.yml': 'group:\n  comment: base\n  profile: default\n',
      'sample-dev.yml': sampleDevYml('initial'),
    });
    const broker = await fleetBroker(PROCESSES + 8, log);
    stops.push(broker.stop);
    // refresh-rate 0 (Spring's default): the strictest freshness; the events' version hints spare the checks.
    const server = await startConfbusServer({
      uri: pathToFileURL(repo.path).href,
      basedir: join(root.path, 'mirror'),
      refreshRate: 0,
      extraArgs: [
        '--spring.cloud.config.server.git.clone-on-start=true',
        '--spring.cloud.bus.enabled=true',
        '--spring.rabbitmq.host=127.0.0.1',
        `--spring.rabbitmq.port=${broker.port}`,
        `--spring.rabbitmq.virtual-host=${broker.vhost}`,
      ],
    });
    stops.push(server.stop);
    const t = performance.now();
    const clients = await Promise.all(
      Array.from({ length: PROCESSES }, (_, i) =>
        startSampleClient(i, { serverUrl: server.url, broker, cwd: root.path }),
      ),
    );
    stops.push(...clients.map((c) => c.stop));
    note(
      `- ${PROCESSES} \`confbus sample-client\` processes (one instance each) started in ${fmt((performance.now() - t) / 1000)} s; ` +
        `\`confbus server\` with refresh-rate 0 and the bus on ${broker.describe}; file:// bare remote`,
    );

    let counter = 0;
    const round = async () => {
      const value = `proc-${++counter}`;
      const seen = clients.map((c) => c.refreshedAt.length);
      await repo.push({ 'sample-dev.yml': sampleDevYml(value) }, `bench: ${value}`);
      const cpu0 = await totalCpuMs(clients.map((c) => c.pid));
      const t0 = wallNow();
      const response = await fetch(`${server.url}/monitor`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
        body: JSON.stringify({
          ref: 'refs/heads/master',
          commits: [{ id: '0', message: 'bench', added: [], removed: [], modified: ['sample-dev.yml'] }],
        }),
      });
      if (response.status !== 200) throw new Error(`POST /monitor answered ${response.status}`);
      await response.body?.cancel();
      const deadline = performance.now() + ROUND_DEADLINE_MS;
      while (clients.some((c, i) => c.refreshedAt.length <= seen[i])) {
        if (performance.now() > deadline) {
          const late = clients.filter((c, i) => c.refreshedAt.length <= seen[i]).length;
          throw new Error(`${late} of ${PROCESSES} processes did not refresh within ${ROUND_DEADLINE_MS} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const cpu = (await totalCpuMs(clients.map((c) => c.pid))) - cpu0;
      const latencies = clients.map((c, i) => c.refreshedAt[seen[i]] - t0);
      // Each one serves the pushed value (checked after the round: not part of the timing).
      for (const c of clients) {
        const dynamic = await (await fetch(`${c.url}/dynamic`)).json();
        if (dynamic.comment !== value)
          throw new Error(`${c.url}/dynamic serves ${dynamic.comment}, not ${value}`);
      }
      return { worst: Math.max(...latencies), best: Math.min(...latencies), cpuPerProcess: cpu / PROCESSES };
    };

    for (let i = 0; i < WARMUP_ROUNDS; i++) await round();
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await round());
    const worsts = rounds.map((r) => r.worst);
    const medianWorst = median(worsts);
    rows.push(
      {
        measure,
        confbus: fmt(medianWorst),
        baseline: '',
        ratio: '',
        goal: `<= ${GOAL_MS}`,
        pass: medianWorst <= GOAL_MS,
      },
      {
        measure: `CPU per sample-client process per refresh round, ms (${PROCESSES} processes)`,
        confbus: fmt(median(rounds.map((r) => r.cpuPerProcess))),
        baseline: '',
        ratio: '',
        goal: 'report',
        pass: null,
      },
    );
    note(
      `- ${PROCESSES} processes, ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up: per-round worst ${worsts.map((w) => fmt(w)).join(' ')} ms; ` +
        `per-round first ${rounds.map((r) => fmt(r.best)).join(' ')} ms (log times: 1 ms resolution); ` +
        `CPU per process and round (median, /proc, 10 ms resolution) ${fmt(median(rounds.map((r) => r.cpuPerProcess)))} ms`,
    );
  } catch (err) {
    log(`${measure}: ${err.stack ?? err}`);
    rows.push({
      measure,
      confbus: `error: ${err.message.split('\n')[0].slice(0, 80)}`,
      baseline: '',
      ratio: '',
      goal: `<= ${GOAL_MS}`,
      pass: null,
    });
    details.push(`- ${measure}: failed: ${err.message.split('\n')[0]}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await root.remove();
  }
  return {
    rows,
    sections: [{ title: 'Bus, one instance per process (bench/process-fleet-bench.mjs)', lines: details }],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  // The module object, not its URL: importing ourselves while our top-level await runs would deadlock.
  await runBenches([{ title, run }]);
}
