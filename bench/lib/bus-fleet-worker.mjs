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

/** @type {Array<{ id: string, client: ConfigClient, comment: { current: unknown }, seen: Map<string, { servedAt: number, receivedAt: number | undefined }>, receivedAt: number | undefined, poller?: NodeJS.Timeout, phase?: NodeJS.Timeout }>} */
const instances = [];
/** Waiters of 'collect', re-checked after every refresh. */
const waiters = new Set();
let pollErrors = 0;

function silentLoggerFor(instance) {
  const logger = {
    // ClientBus logs this DEBUG line right before it refreshes for an event addressed to the node (pino's
    // call shape: fields first, then the message).
    debug(_fields, message) {
      if (message === 'Received remote refresh request.') instance.receivedAt = wallNow();
    },
    info() {},
    warn() {},
    error() {},
    child: () => logger,
  };
  return logger;
}

async function startInstance(id, args) {
  const instance = { id, seen: new Map(), receivedAt: undefined };
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
      instance.seen.set(value, { servedAt: wallNow(), receivedAt: instance.receivedAt });
      for (const check of waiters) check();
    }
  };
  record();
  client.on('refresh', record);
  // A failed refresh (e.g. a poll while the server is busy) keeps the old value; counted, not fatal.
  client.on('error', () => {
    pollErrors++;
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
        else missing.push(i.id);
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
