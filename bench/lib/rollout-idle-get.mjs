// The staged-rollouts benchmark's idle cost: the cached GET path of a server with the rollouts feature on and
// idle (no rollout ever started; its Git store read again every sync) against the same server with
// confbus.server.rollouts.enabled=false. Two measures: throughput in alternating rounds, and the servers' own CPU
// time per request over a fixed number of requests — the latter barely moves when other processes load the
// machine, where throughput rounds differ by several times.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { cpuMs } from './cpu-time.mjs';
import { compareThroughput, median } from './load.mjs';
import { startConfbusServer } from './processes.mjs';
import { createConfigRepo } from './repos.mjs';

const REQUESTS_PER_ROUND = 60_000;

/** `{ throughput, cpu: { idle, off, perRound, ratio } }`: CPU µs per request; ratio off/idle (1: same cost). */
export async function measureIdleGet({ root, files, rounds = 6 }) {
  const repo = await createConfigRepo(root, 'idle', files);
  const start = (name, extraArgs) =>
    startConfbusServer({
      uri: pathToFileURL(repo.path).href,
      basedir: join(root, name),
      refreshRate: 3600,
      extraArgs: ['--spring.cloud.bus.enabled=false', ...extraArgs],
    });
  const idle = await start('idle', []);
  const off = await start('off', ['--confbus.server.rollouts.enabled=false']);
  try {
    // A confbus client's fetch: it names its instance.
    const headers = { 'x-confbus-instance-id': 'sample-0', 'x-confbus-instance-tags': 'zone=first' };
    const url = (server) => `${server.url}/sample/default`;
    const throughput = await compareThroughput({
      a: url(idle),
      b: url(off),
      rounds,
      balanced: true,
      headers: { a: headers, b: headers },
    });
    const perRequest = async (server) => {
      const before = await cpuMs(server.child.pid);
      const result = await autocannon({
        url: url(server),
        headers,
        connections: 20,
        amount: REQUESTS_PER_ROUND,
      });
      if (result.non2xx + result.errors > 0) throw new Error(`${result.non2xx + result.errors} failed`);
      return ((await cpuMs(server.child.pid)) - before) * (1000 / REQUESTS_PER_ROUND);
    };
    const cpu = { idle: [], off: [] };
    for (let round = 0; round < rounds; round++)
      for (const side of round % 2 ? ['off', 'idle'] : ['idle', 'off'])
        cpu[side].push(await perRequest(side === 'idle' ? idle : off));
    const perRound = cpu.idle.map((us, index) => cpu.off[index] / us);
    return {
      throughput,
      cpu: { idle: median(cpu.idle), off: median(cpu.off), perRound, ratio: median(perRound) },
    };
  } finally {
    await idle.stop();
    await off.stop();
  }
}
