// A worker process of the bus benchmark (bench/bus-bench.mjs): hosts a share of the client fleet, each
// instance a real ConfigClient with its own bus node and one refreshable component reading `group.comment`.
// Records, per instance and per value, when the component first served it (and when the bus event that
// led there arrived), as wall-clock ms comparable across processes: performance.timeOrigin + now().
//
// IPC protocol (parent -> worker, worker answers with the same `seq`):
//   { seq, type: 'add', ids, args }         start instances `ids` (args: shared ConfigClient --key=value list)
//   { seq, type: 'collect', value, deadlineMs } wait until every instance served `value` (or the deadline)
//   { seq, type: 'poll', intervalMs }      every instance calls refresh() every intervalMs (random phase)
//   { seq, type: 'stop-poll' }
//   { seq, type: 'close' }                 close every client, then exit
import { performance } from 'node:perf_hooks';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import { ConfigClient } from '@confbus/client';

const wallNow = () => performance.timeOrigin + performance.now();
/** Instances started at once per worker: enough to overlap fetches, few enough not to stall the broker. */
const START_CONCURRENCY = 8;

/** @type {Array<{ id: string, client: ConfigClient, comment: { current: unknown }, seen: Map<string, { servedAt: number, receivedAt: number | undefined, fetchedAt: number | undefined }>, receivedAt: number | undefined, fetchedAt: number | undefined, poller?: NodeJS.Timeout, phase?: NodeJS.Timeout }>} */
const instances = [];
/** Waiters of 'collect', re-checked after every refresh. */
const waiters = new Set();
let pollErrors = 0;

/** A core Logger that drops everything but notes when the instance received a refresh event. */
function silentLoggerFor(instance) {
  // ClientBus logs this line (at info or debug) right before it refreshes for an event addressed to the node.
  // And when its re-fetch came back: the "Located environment" line (DEBUG on a refresh; this logger has no
  // isLevelEnabled, so the client writes it), which splits re-fetch from rebuild in the report.
  const note = (_fields, message) => {
    if (message === 'Received remote refresh request.') instance.receivedAt = wallNow();
    else if (message.startsWith('Located environment:')) instance.fetchedAt = wallNow();
  };
  const logger = { debug: note, info: note, warn() {}, error() {}, child: () => logger };
  return logger;
}

async function startInstance(id, args) {
  const instance = { id, seen: new Map(), receivedAt: undefined, fetchedAt: undefined };
  const client = await ConfigClient.start({
    args: [...args, `--spring.cloud.bus.id=${id}`],
    env: {},
    logger: silentLoggerFor(instance),
  });
  instance.client = client;
  instance.comment = client.refreshable((config) => config.getString('group.comment'));
  const record = () => {
    const value = String(instance.comment.current);
    if (!instance.seen.has(value)) {
      instance.seen.set(value, {
        servedAt: wallNow(),
        receivedAt: instance.receivedAt,
        fetchedAt: instance.fetchedAt,
      });
      for (const check of waiters) check();
    }
  };
  record();
  client.on('refresh', record);
  // A failed refresh (e.g. a poll while the server is busy) keeps the old value; counted, not fatal.
  client.on('error', (error) => {
    pollErrors++;
    instance.lastError = error instanceof Error ? error.message : String(error);
  });
  instances.push(instance);
}

async function add(ids, args) {
  const queue = [...ids];
  const errors = [];
  await Promise.all(
    Array.from({ length: START_CONCURRENCY }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          await startInstance(id, args);
        } catch (error) {
          errors.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }),
  );
  if (errors.length > 0) throw new Error(`could not start ${errors.length} instance(s): ${errors[0]}`);
  const disconnected = instances.filter((i) => !i.client.bus?.connected).map((i) => i.id);
  if (disconnected.length > 0) throw new Error(`bus not connected for ${disconnected.join(', ')}`);
  return { count: instances.length };
}

function collect(value, deadlineMs) {
  return new Promise((resolve) => {
    const finish = () => {
      waiters.delete(check);
      clearTimeout(timer);
      const served = [];
      const missing = [];
      for (const i of instances) {
        const seen = i.seen.get(value);
        if (seen) served.push({ id: i.id, ...seen });
        else missing.push(whyMissing(i));
      }
      resolve({ served, missing });
    };
    const check = () => {
      if (instances.every((i) => i.seen.has(value))) finish();
    };
    const timer = setTimeout(finish, deadlineMs);
    waiters.add(check);
    check();
  });
}

/** An instance that did not serve the value, with what it knows (for the benchmark's error message). */
function whyMissing(instance) {
  const received =
    instance.receivedAt === undefined ? 'none' : `${Math.round(wallNow() - instance.receivedAt)} ms ago`;
  return (
    `${instance.id} (serves ${String(instance.comment.current)}, bus ${instance.client.bus?.connected ? 'up' : 'down'}, ` +
    `last event received ${received}, last error ${instance.lastError ?? 'none'})`
  );
}

function startPolling(intervalMs) {
  pollErrors = 0;
  for (const i of instances) {
    // Random phase: a real fleet's pollers are not in step.
    i.phase = setTimeout(() => {
      i.poller = setInterval(() => i.client.refresh().catch(() => undefined), intervalMs);
      i.client.refresh().catch(() => undefined);
    }, Math.random() * intervalMs);
  }
  return {};
}

function stopPolling() {
  for (const i of instances) {
    clearTimeout(i.phase);
    clearInterval(i.poller);
  }
  return { errors: pollErrors };
}

async function closeAll() {
  stopPolling();
  await Promise.allSettled(instances.map((i) => i.client.close()));
  return {};
}

process.on('message', (msg) => {
  const handlers = {
    add: () => add(msg.ids, msg.args),
    collect: () => collect(msg.value, msg.deadlineMs),
    poll: () => startPolling(msg.intervalMs),
    'stop-poll': () => stopPolling(),
    close: () => closeAll(),
  };
  const handler = handlers[msg.type];
  Promise.resolve()
    .then(() => {
      if (!handler) throw new Error(`unknown message type ${msg.type}`);
      return handler();
    })
    .then(
      (result) => process.send({ seq: msg.seq, ok: true, result }),
      (error) =>
        process.send({
          seq: msg.seq,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        }),
    )
    .finally(() => {
      if (msg.type === 'close') process.disconnect();
    });
});
// The parent going away (crash, SIGKILL) must not leave the fleet connected to the broker.
process.on('disconnect', () => {
  closeAll().finally(() => process.exit(0));
});
