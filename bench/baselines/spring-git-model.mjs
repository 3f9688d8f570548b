// A SMALL MODEL of Spring Cloud Config Server's git backend with refresh-rate 0 - the baseline for the
// fresh-mode benchmark. It is not Spring; it reproduces the cost structure that matters here
// (see /work/shared/spring-reference.md §1 "Concurrency" and §3 "Per-request flow"):
//
//   * every request takes one lock (Spring's findOne/getLocations are `synchronized`), so requests to
//     the repository are served one at a time;
//   * under the lock: `git fetch origin` in a work clone (refresh-rate 0 = fetch on every request),
//     then checkout of the label reset to origin/<label> (Spring's checkout + tryMerge, one git call),
//     then the candidate files are read from the working tree and parsed with `yaml`
//     (Boot's ConfigData reading application*.yml and {app}*.yml), then the JSON answer is built.
//
// What it leaves out (each of which would make the real thing slower, not faster):
//   * JVM/JGit are in-process where this spawns the `git` CLI (2 spawns/request, a few ms; the fetch's
//     network round trip dominates either way);
//   * Boot's ConfigData machinery, search paths, .properties files, profile documents
//     (spring.config.activate.on-profile), placeholder resolution, overrides, encryption, the
//     master/main label fallback, and the v2 JSON format. Only .yml/.yaml in the root are read.
//
// Usage: node spring-git-model.mjs <git uri> <work dir> [default label=master]
// Clones at start (Spring clones on first request; cloning here keeps it out of the measurement),
// prints `LISTENING http://127.0.0.1:<port>`, exits on SIGTERM.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const exec = promisify(execFile);
const [uri, workDir, defaultLabel = 'master'] = process.argv.slice(2);
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};
const git = (...args) => exec('git', args, { cwd: workDir, env, maxBuffer: 64 * 1024 * 1024 });

// Maps become `a.b`, lists `a[0]`; YAML null becomes "" (as Boot does).
function flatten(value, prefix, out) {
  if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  else out[prefix] = value ?? '';
  return out;
}

// Spring's order, highest precedence first: for each profile (last first) {app}-{p}, application-{p};
// then {app}, application.
function candidateStems(app, profiles) {
  const apps = app === 'application' ? ['application'] : [app, 'application'];
  return [...[...profiles].reverse().flatMap((p) => apps.map((a) => `${a}-${p}`)), ...apps];
}

async function findOne(app, profile, label) {
  await git('fetch', '--quiet', '--tags', 'origin');
  await git('checkout', '--quiet', '--force', '-B', label, `origin/${label}`);
  const version = (await readFile(join(workDir, '.git', 'refs', 'heads', label), 'utf8')).trim();
  const propertySources = [];
  for (const stem of candidateStems(app, profile.split(','))) {
    for (const ext of ['yml', 'yaml']) {
      let text;
      try {
        text = await readFile(join(workDir, `${stem}.${ext}`), 'utf8');
      } catch {
        continue;
      }
      for (const doc of parseAllDocuments(text)) {
        if (doc.errors.length > 0) throw doc.errors[0];
        propertySources.push({ name: `${uri}/${stem}.${ext}`, source: flatten(doc.toJS(), '', {}) });
      }
    }
  }
  return { name: app, profiles: [profile], label: null, version, state: '', propertySources };
}

// The `synchronized` lock: a promise chain, one findOne at a time.
let lock = Promise.resolve();
function serialised(fn) {
  const run = lock.then(fn);
  lock = run.catch(() => {});
  return run;
}

await exec('git', ['clone', '--quiet', '--branch', defaultLabel, uri, workDir], { env });

const server = createServer((req, res) => {
  const [app, profile, label] = new URL(req.url, 'http://x').pathname
    .split('/')
    .slice(1)
    .map(decodeURIComponent);
  if (!app || !profile) {
    res.writeHead(404).end();
    return;
  }
  // Keep request text out of git's option parsing.
  if (label?.startsWith('-')) {
    res.writeHead(400).end();
    return;
  }
  // A client that gave up (e.g. the end of a load run) leaves no work behind: generous to the model,
  // and it keeps one run's queue out of the next.
  const gone = () => res.destroyed || !res.socket || res.socket.destroyed;
  serialised(() => (gone() ? null : findOne(app, profile, label ?? defaultLabel))).then(
    (environment) => {
      if (environment === null) return;
      res.writeHead(200, { 'content-type': 'application/json', 'x-config-version': environment.version });
      res.end(JSON.stringify(environment));
    },
    (err) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(err?.message ?? err) }));
    },
  );
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
