// A worker process of bench/watch-bench.mjs: holds `count` watch streams open on the server (raw SSE over
// node:http, one connection each, as many confbus clients would) and, on each change, takes the environment the
// change carries (streams opened with ?include=environment) or else re-fetches it with the announced version,
// as the client does; reports to its parent when every stream has
// fetched a version — "serving the new config" — with the times its phases ended: the first and the last
// change read off a stream, the last re-fetch answered, and the CPU this process spent on the round (the
// bench clients' own reading, which shares the machine's cores with the server).
import { Agent, request } from 'node:http';

const fetchAgent = new Agent({ keepAlive: true, maxSockets: 64 });
let streams = [];

function openStream(url, onChange) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`watch answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let pending = '';
      res.on('data', (chunk) => {
        pending += chunk;
        let end;
        while ((end = pending.indexOf('\n\n')) !== -1) {
          const message = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const data = /^data: (.*)$/m.exec(message);
          if (/^event: change$/m.test(message) && data) onChange(JSON.parse(data[1]));
        }
      });
      resolve(req);
    });
    req.on('error', reject);
    req.end();
  });
}

function refetch(envUrl, version) {
  return new Promise((resolve, reject) => {
    const req = request(
      envUrl,
      { headers: { 'x-config-min-version': version }, agent: fetchAgent },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

process.on('message', async (message) => {
  if (message.type === 'open') {
    const { watchUrl, envUrl, count } = message;
    const rounds = new Map();
    const onChange = (change) => {
      let round = rounds.get(change.version);
      if (!round) {
        round = { told: 0, served: 0, firstChangeAt: Date.now(), lastChangeAt: 0, cpu: process.cpuUsage() };
        rounds.set(change.version, round);
      }
      if (++round.told === count) round.lastChangeAt = Date.now();
      // The client applies a carried environment of the announced version instead of fetching it.
      const carried = change.environment?.version === change.version;
      void (carried ? Promise.resolve() : refetch(envUrl, change.version)).then(() => {
        if (++round.served < count) return;
        const cpu = process.cpuUsage(round.cpu);
        process.send({
          type: 'served',
          version: change.version,
          firstChangeAt: round.firstChangeAt,
          lastChangeAt: round.lastChangeAt,
          at: Date.now(),
          cpuMs: (cpu.user + cpu.system) / 1000,
        });
      });
    };
    // In batches, so the opens do not all queue at once.
    for (let i = 0; i < count; i += 200) {
      const batch = Math.min(200, count - i);
      streams.push(
        ...(await Promise.all(Array.from({ length: batch }, () => openStream(watchUrl, onChange)))),
      );
    }
    process.send({ type: 'opened', count: streams.length });
  } else if (message.type === 'close') {
    for (const req of streams) req.destroy();
    streams = [];
    fetchAgent.destroy();
    process.exit(0);
  }
});
