/**
 * The deployment recipes cannot rot: containers cannot be built here, so this reads the Dockerfile, the
 * Kubernetes manifests (with the `yaml` package) and the systemd unit, and runs what they say — the same
 * command, arguments and environment, the paths mapped to temp folders and the installed binary to this
 * repository's — against a real server on a real Git remote, then asks the probe paths, the health check and
 * the signal they rely on.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type NodeProcess, startProcess } from '@confbus/testkit/child-process';
import { SERVER_NODE_FLAGS } from '../../packages/server/src/node-flags.ts';
import { reserveFreePort } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { parse, parseAllDocuments } from 'yaml';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const CONFBUS_SCRIPT = join(root, 'packages/cli/bin/confbus.js');
const LISTENING = /Config server listening on (https?:\/\/[^\s"]+)/;

let remote: GitRemote;
let temp: TempDir;
const processes: NodeProcess[] = [];

before(async () => {
  remote = await createGitRemote();
  await remote.commit({ 'orders.yml': 'payments:\n  url: http://payments\n' });
  temp = await makeTempDir('confbus-deploy-');
});
after(async () => {
  for (const child of processes) await child.stop();
  await remote?.remove();
  await temp?.remove();
});

/** Dockerfile instructions, continuation lines joined, comments dropped. */
async function dockerfile(): Promise<Array<{ op: string; rest: string }>> {
  const text = (await readFile(join(root, 'Dockerfile'), 'utf8')).replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), rest: rest.join(' ') };
    });
}

/** The runtime stage's instructions (after the last FROM). */
async function runtimeStage() {
  const all = await dockerfile();
  const lastFrom = all.map((i) => i.op).lastIndexOf('FROM');
  return all.slice(lastFrom);
}

/** The Node flags of the image's entrypoint (`node <flags> <the confbus script>`), checked to be the server's. */
async function entrypointNodeFlags(): Promise<string[]> {
  const entrypoint = (await runtimeStage()).find((i) => i.op === 'ENTRYPOINT')!.rest;
  const [node, ...nodeFlags] = JSON.parse(entrypoint) as string[];
  const script = nodeFlags.pop();
  assert.deepEqual([node, script], ['node', '/opt/confbus/node_modules/confbus/bin/confbus.js']);
  assert.deepEqual(nodeFlags, SERVER_NODE_FLAGS);
  return nodeFlags;
}

/** Starts what a recipe runs, with its paths mapped; resolves with the base URL once it listens. */
async function start(
  command: readonly string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ child: NodeProcess; base: string }> {
  const [program, ...args] = command;
  const child = startProcess(program!, args, env, { cwd, name: 'confbus (recipe)' });
  processes.push(child);
  const line = await child.waitForLine(LISTENING, 60_000);
  // Node got the server's flags (node-flags.ts): the server warns right after this line when it did not.
  assert.ok(!child.lines.some((l) => l.includes('missingNodeFlags')), child.lines.join('\n'));
  return { child, base: LISTENING.exec(line)![1]!.replace(/\/$/, '') };
}

/** The start-up line's JSON: its settings (non-default ones) and basedir. */
function startLine(child: NodeProcess): { settings: Record<string, string>; basedir?: string } {
  const line = child.lines.find((l) => LISTENING.test(l));
  return JSON.parse(line!) as { settings: Record<string, string>; basedir?: string };
}

/** The process ends by itself on SIGTERM (the recipes rely on the signal reaching the binary). */
async function stopsOnSigterm(child: NodeProcess): Promise<void> {
  process.kill(child.pid, 'SIGTERM');
  assert.equal(await child.exited, 0);
}

describe('deployment recipes', () => {
  it('Dockerfile: packs exactly what the confbus command depends on', async () => {
    const pack = (await dockerfile()).find((i) => i.op === 'RUN' && i.rest.includes('npm pack'));
    const packed = [...(pack?.rest.matchAll(/-w (\S+)/g) ?? [])].map((m) => m[1]).sort();
    const needed = new Set<string>(['packages/cli']);
    const folderOf = (name: string) => `packages/${name.replace('@confbus/', '')}`;
    for (const folder of needed) {
      const manifest = JSON.parse(await readFile(join(root, folder, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const dep of Object.keys(manifest.dependencies ?? {}))
        if (dep.startsWith('@confbus/')) needed.add(folderOf(dep));
    }
    assert.deepEqual(packed, [...needed].sort());
  });

  it('Dockerfile: its entrypoint, command and environment serve, pass the health check and stop on SIGTERM', async () => {
    const stage = await runtimeStage();
    const json = (op: string) => JSON.parse(stage.find((i) => i.op === op)!.rest) as string[];
    const nodeFlags = await entrypointNodeFlags();
    const env: Record<string, string> = {};
    for (const { rest } of stage.filter((i) => i.op === 'ENV')) {
      const [key, ...value] = rest.split('=');
      env[key!] = value.join('=').replace('/var/lib/confbus', join(temp.path, 'docker'));
    }
    const exposed = Number(stage.find((i) => i.op === 'EXPOSE')!.rest);
    const port = await reserveFreePort();
    // `docker run -e SPRING_CLOUD_CONFIG_SERVER_GIT_URI=... -p <port>:8888`.
    const { child, base } = await start(
      [process.execPath, ...nodeFlags, CONFBUS_SCRIPT, ...json('CMD')],
      {
        ...env,
        SPRING_CLOUD_CONFIG_SERVER_GIT_URI: remote.url,
        SERVER_PORT: String(port),
        SERVER_ADDRESS: '127.0.0.1',
      },
      temp.path,
    );
    assert.equal((await fetch(`${base}/orders/default`)).status, 200);
    assert.equal(startLine(child).basedir, join(temp.path, 'docker', 'mirror'));
    const healthcheck = stage.find((i) => i.op === 'HEALTHCHECK')!.rest;
    const command = JSON.parse(healthcheck.slice(healthcheck.indexOf('CMD ') + 4)) as string[];
    const script = command[2]!.replace(`:${exposed}/`, `:${port}/`);
    await run(process.execPath, ['-e', script]); // rejects on a non-zero exit
    await stopsOnSigterm(child);
  });

  it('Kubernetes: the container command, environment, Secret keys and probe paths work together', async () => {
    const deployment = parse(
      await readFile(join(root, 'deploy/kubernetes/deployment.yaml'), 'utf8'),
    ) as Deployment;
    const secret = parse(await readFile(join(root, 'deploy/kubernetes/secret.example.yaml'), 'utf8')) as {
      metadata: { name: string };
      stringData: Record<string, string>;
    };
    const service = parseAllDocuments(
      await readFile(join(root, 'deploy/kubernetes/service.yaml'), 'utf8'),
    )[0]!.toJS() as {
      spec: { ports: Array<{ targetPort: string | number }> };
    };
    const container = deployment.spec.template.spec.containers[0]!;
    const port =
      container.ports.find((p) => p.name === service.spec.ports[0]!.targetPort) ?? container.ports[0]!;
    assert.equal(port.containerPort, 8888);
    const mounts = container.volumeMounts.map((m) => m.mountPath);
    const env: Record<string, string> = {};
    for (const entry of container.env) {
      const ref = entry.valueFrom?.secretKeyRef;
      if (ref) {
        assert.equal(ref.name, secret.metadata.name);
        assert.ok(ref.key in secret.stringData, `the Secret has ${ref.key}`);
      }
      let value = ref ? secret.stringData[ref.key]! : entry.value!;
      for (const mount of mounts) value = value.replace(mount, join(temp.path, 'k8s', mount));
      env[entry.name] = value;
    }
    // The example repository URL is replaced by the test's; everything else is as written.
    env.SPRING_CLOUD_CONFIG_SERVER_GIT_URI = remote.url;
    const free = await reserveFreePort();
    const { child, base } = await start(
      // The container runs the image's entrypoint with these args.
      [process.execPath, ...(await entrypointNodeFlags()), CONFBUS_SCRIPT, ...container.args],
      { ...env, SERVER_PORT: String(free), SERVER_ADDRESS: '127.0.0.1' },
      temp.path,
    );
    // Every variable bound a setting (a typo would be warned about and ignored).
    const settings = startLine(child).settings;
    for (const key of ['spring.security.user.password', 'encrypt.key', 'confbus.server.cache.max-bytes'])
      assert.ok(key in settings, `${key} is set from the manifest: ${JSON.stringify(settings)}`);
    assert.ok(!child.lines.some((l) => /did you mean/i.test(l)), child.lines.join('\n'));
    // Liveness answers at once; readiness once the first clone is in (Kubernetes polls it, as here).
    for (const probe of [container.livenessProbe, container.startupProbe]) {
      assert.equal(
        (await fetch(`${base}${probe.httpGet.path}`)).status,
        200,
        `${probe.httpGet.path} answers 200`,
      );
    }
    await waitFor(`${container.readinessProbe.httpGet.path} to answer 200`, async () => {
      return (await fetch(`${base}${container.readinessProbe.httpGet.path}`)).status === 200;
    });
    assert.equal((await fetch(`${base}/orders/default`)).status, 401);
    const auth = Buffer.from(
      `${env.SPRING_SECURITY_USER_NAME}:${env.SPRING_SECURITY_USER_PASSWORD}`,
    ).toString('base64');
    const answer = await fetch(`${base}/orders/default`, { headers: { authorization: `Basic ${auth}` } });
    assert.equal(answer.status, 200);
    await stopsOnSigterm(child);
  });

  it('systemd: ExecStart with the unit environment keeps the mirrors in its CacheDirectory', async () => {
    const unit = await readFile(join(root, 'deploy/systemd/confbus.service'), 'utf8');
    const values = (key: string) =>
      unit
        .split('\n')
        .filter((line) => line.startsWith(`${key}=`))
        .map((line) => line.slice(key.length + 1));
    const [node, ...rest] = values('ExecStart')[0]!.split(/\s+/);
    const nodeFlags = rest.slice(
      0,
      rest.findIndex((word) => !word.startsWith('--')),
    );
    const [script, ...args] = rest.slice(nodeFlags.length);
    assert.equal(node, '/usr/bin/node');
    assert.deepEqual(nodeFlags, SERVER_NODE_FLAGS);
    assert.equal(script, '/opt/confbus/node_modules/confbus/bin/confbus.js');
    const cache = join(temp.path, 'systemd', 'cache', values('CacheDirectory')[0]!);
    await run('mkdir', ['-p', cache]);
    const env: Record<string, string> = { CACHE_DIRECTORY: cache };
    for (const assignment of values('Environment')) {
      const [key, ...value] = assignment.split('=');
      env[key!] = value.join('=');
    }
    // /etc/confbus/confbus.env, as an operator writes it.
    env.SPRING_CLOUD_CONFIG_SERVER_GIT_URI = remote.url;
    env.SERVER_PORT = String(await reserveFreePort());
    env.SERVER_ADDRESS = '127.0.0.1';
    const { child, base } = await start(
      [process.execPath, ...nodeFlags, CONFBUS_SCRIPT, ...args],
      env,
      cache,
    );
    assert.equal((await fetch(`${base}/orders/default`)).status, 200);
    assert.ok(startLine(child).basedir?.startsWith(join(cache, 'mirrors')), JSON.stringify(startLine(child)));
    await stopsOnSigterm(child);
  });
});

interface Probe {
  httpGet: { path: string; port: string | number };
}

interface Deployment {
  spec: {
    template: {
      spec: {
        containers: Array<{
          args: string[];
          ports: Array<{ name: string; containerPort: number }>;
          env: Array<{
            name: string;
            value?: string;
            valueFrom?: { secretKeyRef?: { name: string; key: string } };
          }>;
          readinessProbe: Probe;
          livenessProbe: Probe;
          startupProbe: Probe;
          volumeMounts: Array<{ mountPath: string }>;
        }>;
      };
    };
  };
}
