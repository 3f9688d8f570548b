// The staged-rollouts benchmark's fleet: `confbus sample-client` processes with stable instance ids and the
// sample's injected fault, each process's refreshes read from its own log, and small HTTP and polling helpers.
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startProcess } from './processes.mjs';

const CONFBUS_BIN = fileURLToPath(new URL('../../packages/cli/bin/confbus.js', import.meta.url));
const { fetch } = globalThis;

/** `all: broken` makes every instance faulty, `comment: broken` every one but sample-0 (see startClient). */
export const sampleYaml = ({ comment, all = 'ok', round = 0 }) =>
  `group:\n  profile: base\n  comment: ${comment}\n  all: ${all}\n  round: ${round}\n`;

/** Polls `check` (an async value, undefined while not there) every 50 ms; throws after `ms`. */
export async function until(what, check, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

/**
 * `sample-<index>` with `bus` (its bus settings; `--spring.cloud.bus.enabled=false` and it watches): zone `first` for index 0, whose fault needs `group.all=broken`; zone
 * `rest` for the others, faulty (/health DOWN) on `group.comment=broken`. `applied` gets every refresh the
 * process logs (the "Keys refreshed" line: pino time, ms): { at, version, trigger }.
 */
export async function startRolloutClient(index, { configUri, bus, cwd }) {
  const applied = [];
  const proc = await startProcess({
    name: `sample-client ${index}`,
    command: process.execPath,
    args: [
      CONFBUS_BIN,
      'sample-client',
      '--server.port=0',
      '--spring.application.name=sample',
      `--spring.cloud.config.uri=${configUri}`,
      `--confbus.client.instance-id=sample-${index}`,
      `--confbus.client.tags.zone=${index === 0 ? 'first' : 'rest'}`,
      `--sample.fault.when=${index === 0 ? 'group.all=broken' : 'group.comment=broken'}`,
      ...bus,
    ],
    cwd,
    env: { NODE_ENV: 'production' },
    ready: (line) => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1],
    deadlineMs: 120_000,
  });
  proc.child.stdout.setEncoding('utf8');
  let rest = '';
  proc.child.stdout.on('data', (text) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (!line.includes('"trigger"')) continue;
      try {
        const { time, version, trigger } = JSON.parse(line);
        if (version) applied.push({ at: Date.parse(time), version, trigger });
      } catch {
        // not a JSON log line
      }
    }
  });
  return { id: `sample-${index}`, applied, stop: proc.stop };
}

/** When `client` first logged serving `back` after it had served `away` (undefined: not yet). */
export function backAt(client, away, back) {
  const left = client.applied.findLastIndex((a) => a.version === away);
  if (left < 0) return undefined;
  return client.applied.slice(left + 1).find((a) => a.version === back);
}

/**
 * A canary's story from 3 s before `first` (the first DOWN report) to `until`: what it applied, what it reported
 * (`reports`: every report the proxy saw), as `sample-3: -1675 ms applied C (bus), 75 ms reported C DOWN, …`.
 */
export function timeline(client, reports, commits, first, until) {
  const name = (version) =>
    Object.keys(commits).find((key) => commits[key] === version) ?? version?.slice(0, 7) ?? 'none';
  const events = [
    ...client.applied.map((a) => ({ at: a.at, text: `applied ${name(a.version)} (${a.trigger})` })),
    ...reports
      .filter((r) => r.instance === client.id)
      .map((r) => ({ at: r.at, text: `reported ${name(r.version)} ${r.status}` })),
  ]
    .filter((e) => e.at >= first - 3000 && e.at <= until)
    .sort((a, b) => a.at - b.at)
    .map((e) => `${e.at - first} ms ${e.text}`);
  return `${client.id}: ${events.join(', ')}`;
}

/** A JSON request; throws with the answer on a status >= 300. */
export async function json(method, url, body, headers = {}) {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}
