// Bus benchmark (issue text in /work/briefs/bus-bench.md): time from a GitHub push webhook to `POST /monitor`
// until every client instance serves the pushed value, for fleets of 10, 50 and 200 instances.
// Everything is real: a bare git remote pushed to with git, a `confbus server` child process with the bus on
// its own RabbitMQ vhost, and ConfigClient instances (built @confbus/client), each with its own bus node and a
// refreshable component reading `group.comment`, spread over worker child processes (lib/bus-fleet-worker.mjs).
// Baseline, same fleet, same run: no bus, every instance calling refresh() once a second.
// Run alone: `npx tsc -b && node bench/bus-bench.mjs`.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { startFleetWorker } from './lib/fleet-workers.mjs';
import { fleetBroker } from './lib/broker-capacity.mjs';
import { cpuMs, totalCpuMs } from './lib/cpu-time.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Bus (webhook to fleet)';

const { fetch } = globalThis;
// CONFBUS_BUS_BENCH_SIZES / _ROUNDS / _CLIENT_ARGS (space-separated --key=value) are for experiments.
const FLEET_SIZES = (process.env.CONFBUS_BUS_BENCH_SIZES ?? '10 50 200 1000').split(/\s+/).map(Number);
const WORKERS = 4;
const ROUNDS = Number(process.env.CONFBUS_BUS_BENCH_ROUNDS ?? 10);
/** The largest fleets get fewer rounds: growing and settling them dominates the run. */
const roundsFor = (size) => (size >= 1000 ? Math.min(ROUNDS, 5) : ROUNDS);
const WARMUP_ROUNDS = 3;
// CONFBUS_BUS_BENCH_NODE_ARGS: node flags for the server and the workers, e.g. --cpu-prof --cpu-prof-dir=DIR.
const NODE_ARGS = (process.env.CONFBUS_BUS_BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const EXTRA_CLIENT_ARGS = (process.env.CONFBUS_BUS_BENCH_CLIENT_ARGS ?? '').split(/\s+/).filter(Boolean);
// The server's refresh-rate (default 0, Spring's default and the strictest; the 1 s polling baseline needs it).
// With refresh-rate 60 the fleet's re-fetches are cache hits, but at 200 instances delivery dominates anyway.
const REFRESH_RATE = Number(process.env.CONFBUS_BUS_BENCH_REFRESH_RATE ?? 0);
const POLL_INTERVAL_MS = 1000;
const POLL_ROUNDS = 4;
/** Per round: how long instances may take before the round counts them as missing. */
const ROUND_DEADLINE_MS = 10_000;
/** Between rounds: how long the fleet's acks may take to reach the server. */
const SETTLE_DEADLINE_MS = 30_000;
const ACKS = !EXTRA_CLIENT_ARGS.includes('--spring.cloud.bus.ack.enabled=false');
/** Goals of issue #14 for the median of per-round worst, by fleet size; other sizes are reported only. */
const GOAL_MEDIAN_MS = new Map([
  [50, 150],
  [200, 250],
  [1000, 2000],
]);
/** Deliveries per webhook beyond 3N + 2 still within "2N + c per event" (a presence message, a redelivery). */
const DELIVERY_SLACK = 8;
/** The polling baseline runs at this size (or the largest below it): 1,000 pollers would measure the server. */
const BASELINE_SIZE = 200;

const wallNow = () => performance.timeOrigin + performance.now();
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
/** Nearest-rank percentile. */
const percentile = (xs, p) => sorted(xs)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

function sampleDevYml(value) {
  return `group:\n  comment: ${value}\n`;
}

/** `confbus server` with the bus on; also collects the times of its "Refresh for: <service>" log lines. */
async function startBusServer({ uri, basedir, broker }) {
  const proc = await startConfbusServer({
    uri,
    basedir,
    // 0: every client GET checks upstream (coalesced), the strictest freshness; the webhook fetches anyway.
    refreshRate: REFRESH_RATE,
    nodeArgs: NODE_ARGS,
    extraArgs: [
      '--spring.cloud.config.server.git.clone-on-start=true',
      '--spring.cloud.bus.enabled=true',
      '--spring.rabbitmq.host=127.0.0.1',
      `--spring.rabbitmq.port=${broker.port}`,
      `--spring.rabbitmq.virtual-host=${broker.vhost}`,
    ],
  });
  /** service -> times (ms epoch, pino's resolution) of "Refresh for" lines, newest last. */
  const refreshLogged = new Map();
  createInterface({ input: proc.child.stdout }).on('line', (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    const m = typeof entry.msg === 'string' && /^Refresh for: (\S+)$/.exec(entry.msg);
    // pino's time: epoch ms, or an ISO string since the server logs ISO-8601 times.
    const time = typeof entry.time === 'string' ? Date.parse(entry.time) : entry.time;
    if (m) refreshLogged.set(m[1], [...(refreshLogged.get(m[1]) ?? []), time]);
  });
  return { url: proc.url, pid: proc.child.pid, stop: proc.stop, output: proc.output, refreshLogged };
}

function githubPush(file) {
  return {
    ref: 'refs/heads/master',
    commits: [{ id: '0', message: 'bench', added: [], removed: [], modified: [file] }],
  };
}

async function postWebhook(serverUrl, body) {
  const response = await fetch(`${serverUrl}/monitor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`POST /monitor answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export async function run({ log }) {
  const rows = [];
  const details = [];
  const note = (line) => {
    details.push(line);
    log(line.replace(/^- /, ''));
  };
  const errorRow = (measure, goal, err) => ({
    measure,
    confbus: `error: ${err.message.split('\n')[0].slice(0, 80)}`,
    baseline: '',
    ratio: '',
    goal,
    pass: null,
  });

  // Counted by the broker itself (each queue numbers the messages routed to it).
  const { brokerDeliveries } = await tsImport('@confbus/testkit/broker-deliveries', import.meta.url);
  const root = await makeTempDir('confbus-bus-bench-');
  const repo = await createConfigRepo(root.path, 'config', {
    'application.yml': 'group:\n  owner: platform\n',
    'sample.yml': 'group:\n  comment: base\n  profile: default\n',
    'sample-dev.yml': sampleDevYml('initial'),
  });
  // One AMQP connection per instance, the server's, and slack for the harness.
  const broker = await fleetBroker(Math.max(...FLEET_SIZES) + 16, log);
  const server = await startBusServer({
    uri: pathToFileURL(repo.path).href,
    basedir: join(root.path, 'mirror'),
    broker,
  });
  note(
    `- confbus server (child process) at ${server.url}: refresh-rate ${REFRESH_RATE}, bus on ${broker.describe}; ` +
      `file:// bare remote; ${WORKERS} worker processes host the client instances`,
  );
  const workers = [];
  for (let i = 0; i < WORKERS; i++) workers.push(await startFleetWorker(i, NODE_ARGS));
  const clientArgs = [
    `--spring.cloud.config.uri=${server.url}`,
    '--spring.application.name=sample',
    '--spring.profiles.active=dev',
    '--spring.cloud.bus.enabled=true',
    '--spring.rabbitmq.host=127.0.0.1',
    `--spring.rabbitmq.port=${broker.port}`,
    `--spring.rabbitmq.virtual-host=${broker.vhost}`,
    '--management.endpoints.web.exposure.include=health',
    ...EXTRA_CLIENT_ARGS,
  ];
  const all = (msg) => Promise.all(workers.map((w) => w.request(msg)));

  let fleet = 0;
  let counter = 0;
  const grow = async (size) => {
    const ids = Array.from({ length: WORKERS }, () => []);
    for (let n = fleet; n < size; n++) ids[n % WORKERS].push(`sample:dev:${n}`);
    const t = performance.now();
    await Promise.all(workers.map((w, i) => w.request({ type: 'add', ids: ids[i], args: clientArgs })));
    log(`fleet grown from ${fleet} to ${size} instances in ${fmt((performance.now() - t) / 1000)} s`);
    fleet = size;
  };
  /** Waits for every instance to serve `value`; latencies from `t0` (ms). */
  const gather = async (value, t0) => {
    const answers = await all({ type: 'collect', value, deadlineMs: ROUND_DEADLINE_MS });
    const served = answers.flatMap((a) => a.served);
    const missing = answers.flatMap((a) => a.missing);
    return {
      latencies: served.map((s) => s.servedAt - t0),
      received: served.filter((s) => s.receivedAt !== undefined).map((s) => s.receivedAt - t0),
      refreshMs: served.filter((s) => s.receivedAt !== undefined).map((s) => s.servedAt - s.receivedAt),
      // Re-fetch: event received to environment back; rebuild: environment back to the component serving it.
      refetchMs: served
        .filter((s) => s.receivedAt !== undefined && s.fetchedAt > s.receivedAt)
        .map((s) => s.fetchedAt - s.receivedAt),
      rebuildMs: served.filter((s) => s.fetchedAt !== undefined).map((s) => s.servedAt - s.fetchedAt),
      missing,
    };
  };

  /** The server's upstream checks so far (each one spawns git). */
  const gitHealth = async () =>
    (await (await fetch(`${server.url}/actuator/health`)).json()).components.git.details;

  /** The server's record of the refresh of `commit` for `sample:**`, listing at most `acks` acks. */
  const trackedEvent = async (commit, acks) => {
    const url = `${server.url}/actuator/refresh-events?limit=10&acks=${acks}`;
    const events = await (await fetch(url)).json();
    return events.find((e) => e.commit === commit && e.destination === 'sample:**');
  };

  /**
   * Waits until the server has an ack from every instance for the refresh of `commit`; the next round starts on
   * a quiet bus, as a real push minutes later would. Polls counts only (acks=0): listing up to 1,000 acks 20
   * times a second cost the server more CPU than the acks themselves, and that CPU is measured per round.
   */
  const settle = async (commit) => {
    const deadline = performance.now() + SETTLE_DEADLINE_MS;
    for (;;) {
      const event = await trackedEvent(commit, 0);
      if (event && event.ackCount >= fleet) return;
      if (performance.now() > deadline) {
        throw new Error(
          `only ${event?.ackCount ?? 0} of ${fleet} acks for ${commit.slice(0, 12)} reached the server within ${SETTLE_DEADLINE_MS} ms`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** The slowest ack's delay after publication (ms), once all are in (read after the round's CPU). */
  const slowestAck = async (commit) =>
    Math.max(...(await trackedEvent(commit, 10_000)).acks.map((a) => a.afterMs));

  /**
   * CPU used so far by the server (with its git children's time once they are reaped: cutime is not read, so
   * git's own work is left out), the fleet workers and the broker; a round's difference is its cost.
   */
  const cpuNow = async () => ({
    server: await cpuMs(server.pid),
    clients: await totalCpuMs(workers.map((w) => w.pid)),
    broker: await cpuMs(broker.pid),
  });

  /** One webhook round: push, POST /monitor, wait for every instance. */
  const busRound = async () => {
    const value = `bus-${++counter}`;
    const git0 = await gitHealth();
    const deliveries0 = await brokerDeliveries(broker.vhost, broker.node);
    const cpu0 = await cpuNow();
    const commit = await repo.push({ 'sample-dev.yml': sampleDevYml(value) }, `bench: ${value}`);
    const before = server.refreshLogged.get('sample')?.length ?? 0;
    const t0 = wallNow();
    const services = await postWebhook(server.url, githubPush('sample-dev.yml'));
    const answerMs = wallNow() - t0;
    if (!services.includes('sample')) throw new Error(`the webhook refreshed ${services}, not sample`);
    const g = await gather(value, t0);
    if (g.missing.length > 0) {
      throw new Error(
        `${g.missing.length} of ${fleet} instances did not serve ${value} within ${ROUND_DEADLINE_MS} ms (e.g. ${g.missing[0]})`,
      );
    }
    const logged = server.refreshLogged.get('sample') ?? [];
    const publishLogMs = logged.length > before ? logged[logged.length - 1] - t0 : undefined;
    const git1 = await gitHealth();
    if (ACKS) await settle(commit);
    const cpu1 = await cpuNow();
    const ackMs = ACKS ? await slowestAck(commit) : undefined;
    const gitChecks = git1.checks - git0.checks;
    const deliveries = (await brokerDeliveries(broker.vhost, broker.node)) - deliveries0;
    const cpu = {
      server: cpu1.server - cpu0.server,
      clients: cpu1.clients - cpu0.clients,
      broker: cpu1.broker - cpu0.broker,
    };
    return {
      ...g,
      answerMs,
      publishLogMs,
      ackMs,
      gitChecks,
      deliveries,
      cpu,
      worst: Math.max(...g.latencies),
    };
  };

  const summaries = [];
  for (const size of FLEET_SIZES) {
    const m = `webhook to all ${size} instances serving, median of per-round worst, ms`;
    try {
      await grow(size);
      log(`${size} instances: ${WARMUP_ROUNDS} warm-up rounds, then ${roundsFor(size)} rounds`);
      // New instances open their keep-alive connection to the server on their first re-fetch and the workers'
      // code paths are cold; a long-running fleet has neither cost, so a few rounds go unmeasured.
      for (let i = 0; i < WARMUP_ROUNDS; i++) await busRound();
      const rounds = [];
      for (let i = 0; i < roundsFor(size); i++) rounds.push(await busRound());
      const worsts = rounds.map((r) => r.worst);
      const every = rounds.flatMap((r) => r.latencies);
      const s = {
        size,
        medianWorst: median(worsts),
        maxWorst: Math.max(...worsts),
        p50: percentile(every, 50),
        p99: percentile(every, 99),
        meanAll: mean(every),
        answer: median(rounds.map((r) => r.answerMs)),
        publishLog: median(rounds.map((r) => r.publishLogMs).filter((x) => x !== undefined)),
        received50: percentile(
          rounds.flatMap((r) => r.received),
          50,
        ),
        receivedWorst: median(rounds.map((r) => Math.max(...r.received))),
        refresh50: percentile(
          rounds.flatMap((r) => r.refreshMs),
          50,
        ),
        refreshWorst: median(rounds.map((r) => Math.max(...r.refreshMs))),
        refetch50: percentile(
          rounds.flatMap((r) => r.refetchMs),
          50,
        ),
        rebuild50: percentile(
          rounds.flatMap((r) => r.rebuildMs),
          50,
        ),
        gitChecks: median(rounds.map((r) => r.gitChecks)),
        deliveries: median(rounds.map((r) => r.deliveries)),
        cpuServer: median(rounds.map((r) => r.cpu.server)) / size,
        cpuClient: median(rounds.map((r) => r.cpu.clients)) / size,
        cpuBroker: median(rounds.map((r) => r.cpu.broker)) / size,
        ackWorst: ACKS ? median(rounds.map((r) => r.ackMs)) : undefined,
        worsts,
      };
      summaries.push(s);
      const goal = GOAL_MEDIAN_MS.get(size);
      rows.push(
        {
          measure: m,
          confbus: fmt(s.medianWorst),
          baseline: '',
          ratio: '',
          goal: goal === undefined ? 'report' : `<= ${goal}`,
          pass: goal === undefined ? null : s.medianWorst <= goal,
        },
        {
          measure: `webhook to all ${size} instances serving, worst round, ms`,
          confbus: fmt(s.maxWorst),
          baseline: '',
          ratio: '',
          goal: 'report',
          pass: null,
        },
        {
          // The webhook names sample-dev.yml, so Spring's service guess sends two events: `sample-dev:**` reaches
          // the N+1 queues and is acted on by no one, `sample:**` reaches them and is acked by the N instances to
          // the servers only (2N + 1). The goal is #14's, per refresh: 2N + c each, 3N + 2 for this webhook.
          measure: `broker deliveries per webhook (2 refresh events: sample-dev, sample), ${size} instances`,
          confbus: String(s.deliveries),
          baseline: `${3 * size + 2} (3N + 2)`,
          ratio: `${fmt(s.deliveries / (2 * size))} per 2N`,
          goal: `<= 2N + c per event`,
          pass: s.deliveries <= 3 * size + 2 + DELIVERY_SLACK,
        },
        {
          measure: `CPU per instance refreshed, client + server, ms (${size} instances; broker apart)`,
          confbus: `${fmt(s.cpuClient + s.cpuServer)} (client ${fmt(s.cpuClient)} + server ${fmt(s.cpuServer)})`,
          baseline: `broker ${fmt(s.cpuBroker)}`,
          ratio: '',
          // Includes the round's fixed costs (the webhook's fetch, publications, /proc's 10 ms ticks) divided by
          // the size: the per-instance goal is checked on the marginal cost below.
          goal: 'report',
          pass: null,
        },
        {
          measure: `upstream git checks per webhook, ${size} instances`,
          confbus: String(s.gitChecks),
          baseline: '',
          ratio: '',
          goal: '1',
          pass: s.gitChecks <= 1,
        },
        {
          measure: `webhook to one of ${size} instances serving, p50 of all, ms`,
          confbus: fmt(s.p50),
          baseline: '',
          ratio: '',
          goal: 'report',
          pass: null,
        },
      );
      note(
        `- ${size} instances, ${roundsFor(size)} rounds: per-round worst ${s.worsts.map((w) => fmt(w)).join(' ')} ms; ` +
          `all ${every.length} latencies p50 ${fmt(s.p50)} / p99 ${fmt(s.p99)} ms`,
      );
      note(
        `- ${size} instances, where the time goes (medians over rounds; ms from the webhook POST): ` +
          `"Refresh for: sample" logged by the server at ${fmt(s.publishLog)} (git fetch + checks + first publish; ms-resolution log time), ` +
          `webhook answered at ${fmt(s.answer)} (both events confirmed); ` +
          `${s.gitChecks} upstream git checks a round (webhook + ${size} re-fetches, coalesced); ` +
          `bus event reached the client: p50 ${fmt(s.received50)}, last ${fmt(s.receivedWorst)}; ` +
          `client re-fetch + rebuild after receipt: p50 ${fmt(s.refresh50)}, slowest ${fmt(s.refreshWorst)} ` +
          `(re-fetch p50 ${fmt(s.refetch50)}, rebuild p50 ${fmt(s.rebuild50)}); ` +
          (ACKS
            ? `all ${size} acks at the server ${fmt(s.ackWorst)} after publication; ${s.deliveries} broker deliveries a round (counted by RabbitMQ)`
            : 'acks off (spring.cloud.bus.ack.enabled=false)'),
      );
      note(
        `- ${size} instances, CPU per webhook round (medians; /proc utime+stime, 10 ms resolution): ` +
          `clients ${fmt(s.cpuClient * size)} ms (${fmt(s.cpuClient)} per instance: event, re-fetch, rebuild, ack), ` +
          `server ${fmt(s.cpuServer * size)} ms (${fmt(s.cpuServer)} per instance: webhook, publish, ${size} re-fetches, ${size} acks; git's own processes not counted), ` +
          `broker ${fmt(s.cpuBroker * size)} ms (${fmt(s.cpuBroker)} per instance)`,
      );
    } catch (err) {
      log(`${m}: ${err.stack ?? err}`);
      const goal = GOAL_MEDIAN_MS.get(size);
      rows.push(errorRow(m, goal === undefined ? 'report' : `<= ${goal}`, err));
      details.push(`- ${m}: failed: ${err.message.split('\n')[0]}`);
      break;
    }
    const next = FLEET_SIZES[FLEET_SIZES.indexOf(size) + 1];
    if (size <= BASELINE_SIZE && (next === undefined || next > BASELINE_SIZE)) await pollBaseline();
  }

  marginalCpuRow();
  for (const w of workers) await w.stop();
  await server.stop();
  await broker.stop();
  return { rows, sections: [{ title: 'Bus (bench/bus-bench.mjs)', lines: details }] };

  /**
   * CPU of one more instance refreshed: the difference of two sizes' round totals over the difference of sizes,
   * so the round's fixed costs (webhook, fetch, publications) cancel out. Between the two largest sizes measured.
   */
  function marginalCpuRow() {
    if (summaries.length < 2) return;
    const [a, b] = summaries.slice(-2);
    const per = (key) => (b[key] * b.size - a[key] * a.size) / (b.size - a.size);
    const client = per('cpuClient');
    const server = per('cpuServer');
    const brokerMs = per('cpuBroker');
    rows.push({
      measure: `CPU per instance refreshed, marginal from ${a.size} to ${b.size} instances, client + server, ms (broker apart)`,
      confbus: `${fmt(client + server)} (client ${fmt(client)} + server ${fmt(server)})`,
      baseline: `broker ${fmt(brokerMs)}`,
      ratio: '',
      goal: '<= 3',
      pass: client + server <= 3,
    });
  }

  /** Baseline at the fleet reached: no webhook, each instance polling refresh() once a second. */
  async function pollBaseline() {
    const mb = `poll every ${POLL_INTERVAL_MS / 1000} s instead (${fleet} instances): push to all serving, mean of per-round worst, ms`;
    try {
      if (fleet === 0) throw new Error('no fleet was started');
      log(`baseline: ${fleet} instances polling every ${POLL_INTERVAL_MS} ms, ${POLL_ROUNDS} pushes`);
      await all({ type: 'poll', intervalMs: POLL_INTERVAL_MS });
      const pollRounds = [];
      try {
        for (let i = 0; i < POLL_ROUNDS; i++) {
          const value = `poll-${++counter}`;
          await repo.push({ 'sample-dev.yml': sampleDevYml(value) }, `bench: ${value}`);
          // The push is visible upstream from here on; polls that started earlier may still miss it.
          const t0 = wallNow();
          const g = await gather(value, t0);
          if (g.missing.length > 0)
            throw new Error(`${g.missing.length} polling instances never served ${value}`);
          pollRounds.push(g);
        }
      } finally {
        const stopped = await all({ type: 'stop-poll' });
        const errors = stopped.reduce((n, s) => n + s.errors, 0);
        if (errors > 0) note(`- baseline: ${errors} poll refreshes failed`);
      }
      const pollEvery = pollRounds.flatMap((r) => r.latencies);
      const pollWorst = mean(pollRounds.map((r) => Math.max(...r.latencies)));
      const bus = summaries.find((s) => s.size === fleet);
      rows.push(
        {
          measure: mb,
          confbus: bus ? `${fmt(bus.medianWorst)} (bus, median)` : 'n/a',
          baseline: `${fmt(pollWorst)} (1 s poll)`,
          ratio: bus ? `${fmt(bus.medianWorst / pollWorst)}x (bus / poll)` : '',
          goal: 'report',
          pass: null,
        },
        {
          measure: `poll every ${POLL_INTERVAL_MS / 1000} s instead (${fleet} instances): staleness, mean of all, ms`,
          confbus: bus ? `${fmt(bus.meanAll)} (bus, mean)` : 'n/a',
          baseline: `${fmt(mean(pollEvery))} (1 s poll)`,
          ratio: bus ? `${fmt(bus.meanAll / mean(pollEvery))}x (bus / poll)` : '',
          goal: 'report',
          pass: null,
        },
      );
      note(
        `- baseline (no bus: every instance calls refresh() every ${POLL_INTERVAL_MS} ms, random phase; ${POLL_ROUNDS} pushes, ` +
          `latency from the end of git push): mean ${fmt(mean(pollEvery))} ms, p50 ${fmt(percentile(pollEvery, 50))}, ` +
          `p99 ${fmt(percentile(pollEvery, 99))}, per-round worst ${pollRounds.map((r) => fmt(Math.max(...r.latencies))).join(' ')} ms ` +
          `(expected: ~${POLL_INTERVAL_MS / 2} ms mean, ~${POLL_INTERVAL_MS} ms worst, plus one refresh)`,
      );
    } catch (err) {
      log(`${mb}: ${err.stack ?? err}`);
      rows.push(errorRow(mb, 'report', err));
      details.push(`- ${mb}: failed: ${err.message.split('\n')[0]}`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  // The module object, not its URL: importing ourselves while our top-level await runs would deadlock.
  await runBenches([{ title, run }]);
}
