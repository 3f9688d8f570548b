// `confbus run` benchmarks:
//   1. what `confbus run` adds to a child's start: a Python child that prints `ready` and exits, spawned
//      directly and under `confbus run` (alternating rounds, so load bursts hit both alike), time from spawn
//      to the `ready` line. The config fetch from the local server is measured inside confbus (its start line's
//      `fetchMs`) and reported apart: the row's figure is the paired median of (run - direct - fetch). Goal
//      <= 50 ms. A bare `node -e 0` start is measured in the same rounds, for scale.
//   2. restart on change: a push, its webhook to the server's /monitor, the refresh event over RabbitMQ (its
//      own vhost), and the child restarted and serving the new value (its first line), from the POST to that
//      line; with the default 500 ms debounce and with --debounce=0.
// Run alone: `node bench/run-bench.mjs`.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'confbus run';

// Node 20's global fetch (undici); the lint config for .mjs files declares no browser-style globals.
const { fetch } = globalThis;

const CONFBUS_BIN = fileURLToPath(new URL('../packages/cli/bin/confbus.js', import.meta.url));
const START_ROUNDS = 15;
const CHANGES = 5;
const START_GOAL_MS = 50;
/** Prints its start line, then (as a server would) stays up until SIGTERM. */
const CHILD = `
import os, signal, sys
print("serving " + str(os.environ.get("GREETING")), flush=True)
if len(sys.argv) > 1 and sys.argv[1] == "once":
    sys.exit(0)
signal.pause()
`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Spawns and resolves with ms from spawn to the first stdout line matching `ready`, and confbus's start line. */
function timeToLine(command, args, ready) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CONFBUS_LOGGING_FORMAT: 'json' },
    });
    let startLine;
    let readyMs;
    createInterface({ input: child.stderr }).on('line', (line) => {
      try {
        const parsed = JSON.parse(line);
        if (parsed.fetchMs !== undefined) startLine = parsed;
      } catch {
        // Not a log line.
      }
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (readyMs === undefined && ready.test(line)) readyMs = performance.now() - started;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (readyMs === undefined)
        reject(new Error(`${command} ${args.join(' ')} exited ${code} before ready`));
      else resolve({ ms: readyMs, startLine });
    });
  });
}

async function measureStart({ serverUrl, childPath, log }) {
  const direct = [];
  const viaRun = [];
  const fetches = [];
  const overheads = [];
  const nodeBoot = [];
  for (let round = 0; round < START_ROUNDS; round++) {
    const runArgs = [
      CONFBUS_BIN,
      'run',
      '--spring.application.name=bench',
      `--spring.cloud.config.uri=${serverUrl}`,
      '--confbus.client.poll.interval=0',
      '--',
      'python3',
      childPath,
      'once',
    ];
    // Alternating which goes first: a burst of load from a neighbour hits both sides of a pair alike.
    const sides = [
      async () => direct.push((await timeToLine('python3', [childPath, 'once'], /^serving /)).ms),
      async () => {
        const run = await timeToLine(process.execPath, runArgs, /^serving /);
        viaRun.push(run.ms);
        fetches.push(run.startLine.fetchMs);
      },
    ];
    if (round % 2) sides.reverse();
    for (const side of sides) await side();
    nodeBoot.push((await timeToLine(process.execPath, ['-e', 'console.log("serving")'], /^serving/)).ms);
    overheads.push(viaRun.at(-1) - direct.at(-1) - fetches.at(-1));
  }
  log(`start: direct ${fmt(median(direct))} ms, via confbus run ${fmt(median(viaRun))} ms`);
  return {
    direct: median(direct),
    viaRun: median(viaRun),
    fetch: median(fetches),
    overhead: median(overheads),
    nodeBoot: median(nodeBoot),
    overheadRange: [Math.min(...overheads), Math.max(...overheads)],
  };
}

/** `confbus run` on the bus with `debounce`; ms from each webhook POST to the child's line with the new value. */
async function measureRestarts({ server, repo, busArgs, childPath, debounce, current, log }) {
  const child = spawn(
    process.execPath,
    [
      CONFBUS_BIN,
      'run',
      '--spring.application.name=bench',
      `--spring.cloud.config.uri=${server.url}`,
      '--confbus.client.poll.interval=0',
      `--debounce=${debounce}`,
      ...busArgs,
      '--',
      'python3',
      childPath,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, CONFBUS_LOGGING_FORMAT: 'json' } },
  );
  const stop = onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });
  const waiters = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => waiters.get(line)?.());
  const seen = (line) => new Promise((resolve) => waiters.set(line, () => resolve(performance.now())));
  await seen(`serving ${current}`);
  const times = [];
  for (let i = 0; i < CHANGES; i++) {
    const value = `change-${debounce}-${i}`;
    await repo.push({ 'bench.yml': `greeting: ${value}\n` });
    const served = seen(`serving ${value}`);
    const posted = performance.now();
    const response = await fetch(`${server.url}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: ['bench.yml'] }),
    });
    if (response.status !== 200) throw new Error(`/monitor answered ${response.status}`);
    times.push((await served) - posted);
  }
  await stop();
  log(`restart (debounce ${debounce}): ${times.map((t) => fmt(t)).join(' / ')} ms`);
  return times;
}

export async function run({ log }) {
  const rows = [];
  const lines = [];
  const note = (line) => {
    lines.push(line);
    log(line.replace(/^- /, ''));
  };
  let childStartMs;
  const root = await makeTempDir('confbus-run-bench-');
  const childPath = join(root.path, 'child.py');
  await writeFile(childPath, CHILD);
  const repo = await createConfigRepo(root.path, 'config', { 'bench.yml': 'greeting: base\n' });
  const { createTestVhost } = await tsImport('@confbus/testkit/rabbit-vhost', import.meta.url);
  const vhost = await createTestVhost();
  const removeVhost = onCleanup(() => vhost.remove());
  const busArgs = [
    '--spring.cloud.bus.enabled=true',
    '--spring.rabbitmq.host=127.0.0.1',
    `--spring.rabbitmq.virtual-host=${vhost.name}`,
  ];
  const server = await startConfbusServer({
    uri: pathToFileURL(repo.path).href,
    basedir: join(root.path, 'mirror'),
    refreshRate: 0,
    extraArgs: busArgs,
  });

  const startMeasure = 'confbus run: added to a child start (fetch excluded), median ms';
  try {
    const start = await measureStart({ serverUrl: server.url, childPath, log });
    rows.push({
      measure: startMeasure,
      confbus: fmt(start.overhead),
      baseline: `${fmt(start.direct)} (python3 child spawned directly)`,
      // Load on a shared machine slows every process start alike: the added time in bare Node starts is the
      // figure that carries from one machine to another.
      ratio: `${fmt(start.overhead / start.nodeBoot)}x a bare node start (${fmt(start.nodeBoot)} ms)`,
      goal: `<= ${START_GOAL_MS} ms`,
      pass: start.overhead <= START_GOAL_MS,
    });
    rows.push({
      measure: 'confbus run: config fetch from a local server, median ms',
      confbus: fmt(start.fetch),
      baseline: '',
      ratio: '',
      goal: 'report',
      pass: null,
    });
    childStartMs = start.direct;
    note(
      `- start, medians of ${START_ROUNDS} alternating rounds: python3 child directly ${fmt(start.direct)} ms; under ` +
        `confbus run ${fmt(start.viaRun)} ms, of which the fetch ${fmt(start.fetch)} ms; added without the fetch ` +
        `${fmt(start.overhead)} ms (paired per round, range ${start.overheadRange.map((v) => fmt(v)).join('-')} ms). ` +
        `For scale, a bare \`node -e\` start: ${fmt(start.nodeBoot)} ms.`,
    );
  } catch (error) {
    log(`${startMeasure}: ${error.stack ?? error}`);
    rows.push({
      measure: startMeasure,
      confbus: `error: ${error.message}`,
      baseline: '',
      ratio: '',
      goal: '',
      pass: null,
    });
  }

  let current = 'base';
  for (const debounce of ['500ms', '0']) {
    const measure = `confbus run: webhook to restarted child serving the new value, debounce ${debounce}, median ms`;
    try {
      const times = await measureRestarts({ server, repo, busArgs, childPath, debounce, current, log });
      current = `change-${debounce}-${CHANGES - 1}`;
      rows.push({
        measure,
        confbus: fmt(median(times)),
        baseline: childStartMs === undefined ? '' : `${fmt(childStartMs)} (the child's own start)`,
        ratio: '',
        goal: 'report',
        pass: null,
      });
      note(
        `- restart on change, debounce ${debounce}, ${CHANGES} pushes (push, POST /monitor, RabbitMQ, refresh, ` +
          `SIGTERM, new child's first line): ${times.map((t) => fmt(t)).join(' / ')} ms, range ` +
          `${fmt(Math.min(...times))}-${fmt(Math.max(...times))} ms`,
      );
    } catch (error) {
      log(`${measure}: ${error.stack ?? error}`);
      rows.push({
        measure,
        confbus: `error: ${error.message}`,
        baseline: '',
        ratio: '',
        goal: 'report',
        pass: null,
      });
    }
  }
  await server.stop();
  await removeVhost();
  return { rows, sections: [{ title: 'confbus run (bench/run-bench.mjs)', lines }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
