// The watch bench's comparison rows (issue #29): the watch stream against the AMQP bus measured in the same
// run (lib/bus-fleet-comparison.mjs), and pushes per second per core against the published figures of Apollo
// and Nacos (sources in /work/shared/ecosystem-notes.md §1.2–1.3 and docs/watch.md).
import { fmt } from './report.mjs';

/**
 * Published push rates, per core of the machine they were given for. Neither is a CPU measurement like
 * ours: Apollo's is its notification throttle's default, Nacos's a benchmark of a whole node.
 */
export const PEERS = [
  {
    name: 'Apollo',
    perCore: 1000 / 4,
    source:
      'Apollo: ≈1,000 clients notified/s per namespace per config service (release-message.notification.batch 100 per 100 ms, BizConfig defaults), 4-core VM of its 10k-connection test: ≈250/s per core',
  },
  {
    name: 'Nacos 2',
    perCore: 1500 / 8,
    source: 'Nacos 2.0: 1,500 change pushes/s on one 8C16G node (nacos2-config-benchmark): ≈190/s per core',
  },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Pushes per CPU-second of `told` instances for each round's CPU (ms): [median, lowest]. */
function ratesOf(told, cpuMsPerRound) {
  const rates = cpuMsPerRound.map((ms) => told / (Math.max(ms, 10) / 1000));
  return [median(rates), Math.min(...rates)];
}

const row = (measure, confbus, baseline = '', ratio = '') => ({
  measure,
  confbus,
  baseline,
  ratio,
  goal: 'report',
  pass: null,
});

/**
 * Rows for one fleet size: pushes per second per core of the watch (each mode measured), against the peers,
 * and the watch against the bus (`bus`: an entry of measureBusFleets, or undefined when not run).
 */
export function comparisonRows(n, watch, bus) {
  const rows = [];
  const lines = [];
  for (const [mode, { phases }] of Object.entries(watch)) {
    const [mid, low] = ratesOf(
      n,
      phases.map((p) => p.serverCpu),
    );
    rows.push(
      row(
        `pushes per second per core, watch (${mode}): ${n} watchers told / server CPU s (median round; lowest)`,
        `${fmt(mid)}/s (lowest ${fmt(low)}/s)`,
        PEERS.map((p) => `${p.name} ≈${fmt(p.perCore)}/s`).join('; '),
        PEERS.map((p) => `${fmt(low / p.perCore, '×')} ${p.name}`).join(', '),
      ),
    );
  }
  if (bus === undefined) return { rows, lines };
  const label = bus.size === n ? `${n}` : `${bus.size} (asked ${n})`;
  if (bus.error !== undefined) {
    rows.push(row(`AMQP bus: webhook → ${label} instances serving`, `not measured: ${bus.error}`));
    if (bus.note) lines.push(`bus at ${n}: ${bus.note}`);
    return { rows, lines };
  }
  const busMedian = median(bus.times);
  const missed = bus.missed.reduce((a, b) => a + b, 0);
  const carried = watch.environment ?? watch.keys;
  const watchMedian = carried && median(carried.times);
  rows.push(
    row(
      `AMQP bus, same run: webhook → ${label} instances serving (median of ${bus.times.length} rounds; worst)`,
      `${busMedian} ms (worst ${Math.max(...bus.times)} ms)` +
        (missed > 0
          ? `; ${missed} instance-rounds missed the change (re-fetch failed), timed without them`
          : ''),
      watchMedian === undefined ? '' : `watch ${watchMedian} ms at ${n}`,
      watchMedian === undefined ? '' : `watch ${fmt(busMedian / Math.max(1, watchMedian), '×')} faster`,
    ),
  );
  const busCpu = bus.times.map((_, i) => bus.serverCpu[i] + bus.brokerCpu[i]);
  const [busMid, busLow] = ratesOf(bus.size, busCpu);
  rows.push(
    row(
      `pushes per second per core, AMQP bus: ${label} instances / (server + broker) CPU s (median; lowest)`,
      `${fmt(busMid)}/s (lowest ${fmt(busLow)}/s)`,
    ),
  );
  const watchRss = carried?.perWatcher;
  rows.push(
    row(
      `memory per instance held, AMQP bus at ${label}: server + broker RSS growth`,
      `${fmt((bus.serverRss + bus.brokerRss) / 1024, ' KB')} (server ${fmt(bus.serverRss / 1024, ' KB')} + broker ${fmt(bus.brokerRss / 1024, ' KB')})`,
      watchRss === undefined ? '' : `watch server ${fmt(watchRss / 1024, ' KB')}`,
    ),
  );
  lines.push(
    `bus at ${label}: rounds ${bus.times.join(', ')} ms (webhook answered at ${bus.answered.join(', ')} ms); CPU per round server ${bus.serverCpu.join(', ')} ms, ` +
      `broker ${bus.brokerCpu.join(', ')} ms; RSS per instance: server ${fmt(bus.serverRss, ' B')}, broker ` +
      `${fmt(bus.brokerRss, ' B')}, the instances themselves (workers) ${fmt(bus.workersRss / 1024, ' KB')}` +
      (missed > 0 ? `; missed per round ${bus.missed.join(', ')}, e.g. ${bus.missedWhy}` : '') +
      (bus.note ? `; ${bus.note}` : ''),
  );
  return { rows, lines };
}
