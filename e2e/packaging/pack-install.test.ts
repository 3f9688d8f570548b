/**
 * What a user outside this repository gets: every publishable package is packed with `npm pack`, and each
 * tarball is installed in an empty folder outside the repository together with only the tarballs of the
 * @confbus packages it declares (so a missing or wrong dependency fails here). Then, from those folders: the
 * `confbus` command's help, its message when the optional sample client is absent, the server it starts, and
 * the README's client example (transpiled as a user's build would) fetching from that server — from the folder
 * where @confbus/client was installed with core only: the bus is its optional peer, loaded only when enabled.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { getJson, reserveFreePort, waitFor } from '@confbus/testkit/confbus-processes';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { readmeBlocks } from '../support/readme.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Publishable packages and their folders; the testkit and the monorepo root are private. */
const PUBLISHED: Record<string, string> = {
  '@confbus/core': 'packages/core',
  '@confbus/contracts': 'packages/contracts',
  '@confbus/bus': 'packages/bus',
  '@confbus/console': 'packages/console',
  '@confbus/server': 'packages/server',
  '@confbus/client': 'packages/client',
  '@confbus/nestjs': 'packages/nestjs',
  '@confbus/openfeature': 'packages/openfeature',
  '@confbus/sample-client': 'examples/sample-client',
  confbus: 'packages/cli',
};

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  license?: string;
  description?: string;
  keywords?: string[];
  engines?: Record<string, string>;
  publishConfig?: { access?: string };
  files?: string[];
  repository?: { type: string; url: string; directory?: string };
  homepage?: string;
  bugs?: unknown;
}

const temp: Array<{ remove: () => Promise<void> }> = [];
const tarballs = new Map<string, string>();
const manifests = new Map<string, PackageJson>();
const installs = new Map<string, string>();

async function tempDir(prefix: string): Promise<string> {
  const dir = await makeTempDir(prefix);
  temp.push(dir);
  return dir.path;
}

/** The package and every @confbus package it depends on, transitively (optional peers excluded). */
function closure(name: string, seen = new Set<string>()): Set<string> {
  seen.add(name);
  for (const dependency of Object.keys(manifests.get(name)?.dependencies ?? {})) {
    if (dependency in PUBLISHED && !seen.has(dependency)) closure(dependency, seen);
  }
  return seen;
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

before(async () => {
  for (const [name, dir] of Object.entries(PUBLISHED)) {
    manifests.set(name, JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8')) as PackageJson);
  }
  const packed = await tempDir('confbus-packs-');
  const workspaces = Object.keys(PUBLISHED).flatMap((name) => ['--workspace', name]);
  const listing = JSON.parse(
    await npm(['pack', '--json', '--pack-destination', packed, ...workspaces], root),
  ) as Array<{ name: string; filename: string; files: Array<{ path: string }> }>;
  for (const entry of listing) {
    tarballs.set(entry.name, join(packed, entry.filename));
    const paths = entry.files.map((file) => file.path);
    assert.ok(paths.includes('LICENSE'), `${entry.name} ships a LICENSE`);
    assert.ok(paths.includes('README.md'), `${entry.name} ships a README`);
    assert.ok(!paths.some((path) => path.endsWith('.tsbuildinfo')), `${entry.name} ships no build info`);
    // Source maps name ../src/*.ts: those files must be in the tarball for stack traces to point at code.
    assert.ok(
      paths.some((path) => path.startsWith('src/')),
      `${entry.name} ships the sources its maps point at`,
    );
  }
  // Each package alone, with only the tarballs of what it declares, in a folder outside the repository.
  await Promise.all(
    Object.keys(PUBLISHED).map(async (name) => {
      const dir = await tempDir(`confbus-install-${name.replace(/\W/g, '-')}-`);
      await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'user-app', private: true }));
      const files = [...closure(name)].map((dependency) => tarballs.get(dependency) as string);
      await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', ...files], dir);
      installs.set(name, dir);
    }),
  );
});

after(async () => {
  await stopAllNodeProcesses();
  await Promise.all(temp.map((dir) => dir.remove()));
});

test('every publishable package has complete metadata', async () => {
  const project = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as PackageJson;
  for (const [name, manifest] of manifests) {
    assert.equal(manifest.license, 'Apache-2.0', name);
    assert.ok(manifest.description && manifest.description.length > 20, `${name} has a description`);
    assert.ok(manifest.keywords?.includes('confbus'), `${name} is found by searching npm for confbus`);
    assert.equal(
      manifest.engines?.node,
      project.engines?.node,
      `${name} needs the Node versions the project does`,
    );
    assert.equal(manifest.publishConfig?.access, 'public', `${name} publishes publicly`);
    // Where the code lives is the project's to say, once (docs/architecture.md, "Publishing"): today there is no
    // public repository, so no package names one; once the root does, each names it with its folder.
    const repository = project.repository && { ...project.repository, directory: PUBLISHED[name] };
    assert.deepEqual(manifest.repository, repository, `${name}: repository as the project's`);
    assert.equal(manifest.homepage, project.homepage, `${name}: homepage as the project's`);
    assert.deepEqual(manifest.bugs, project.bugs, `${name}: bugs as the project's`);
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dependency in PUBLISHED) {
        assert.equal(manifest.dependencies?.[dependency], manifest.version, `${name} → ${dependency}`);
      }
    }
  }
});

test("each package's README stands alone: no link into the repository, which the tarball does not carry", async () => {
  for (const [name, dir] of Object.entries(PUBLISHED)) {
    const readme = await readFile(join(root, dir, 'README.md'), 'utf8');
    // Inline links and images, reference definitions and HTML attributes: only web addresses and anchors work
    // on npmjs.com (the package names no repository to resolve paths against) and in an unpacked tarball.
    const targets = [
      ...[...readme.matchAll(/\]\(([^)\s]+)/g)].map((m) => m[1]),
      ...[...readme.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]),
      ...[...readme.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]),
    ];
    const local = targets.filter((target) => !/^(https:\/\/|#)/.test(target as string));
    assert.deepEqual(local, [], `${name}'s README links to files outside the package`);
  }
});

test('each package imports from a folder where it was installed alone', async () => {
  for (const name of Object.keys(PUBLISHED).filter((n) => n !== 'confbus')) {
    const dir = installs.get(name) as string;
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', `const m = await import('${name}'); console.log(Object.keys(m).length)`],
      { cwd: dir },
    );
    assert.ok(Number(stdout.trim()) > 0, `${name} exports something`);
  }
});

test('npx confbus help works outside the repository', async () => {
  const { stdout } = await run('npx', ['--no-install', 'confbus', 'help'], { cwd: installs.get('confbus') });
  assert.match(stdout, /Usage: confbus <command>/);
  assert.match(stdout, /--server\.port=<integer>/);
  assert.match(stdout, /--spring\.cloud\.config\.uri=/);
});

test('confbus run starts from its bundle in an installation', async () => {
  const dir = installs.get('confbus') as string;
  await access(join(dir, 'node_modules/confbus/dist/bundle/follow-main.js'));
  // No server at that address: the client loads, fetches, fails, and the child never starts.
  const failure = await run(
    'npx',
    ['--no-install', 'confbus', 'run', '--spring.cloud.config.uri=http://127.0.0.1:9', '--', 'true'],
    { cwd: dir },
  ).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  assert.ok(failure, 'the command fails');
  assert.equal(failure.code, 1);
  assert.match(failure.stderr, /127\.0\.0\.1:9/);
});

test('the sample-client command says what to install when the optional sample is absent', async () => {
  const failure = await run('npx', ['--no-install', 'confbus', 'sample-client'], {
    cwd: installs.get('confbus'),
  }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  assert.ok(failure, 'the command fails');
  assert.notEqual(failure.code, 0);
  assert.match(failure.stderr, /npm install @confbus\/sample-client/);
});

/** The README's first TypeScript block, compiled as a user's build would compile it, as `dir`/app.mjs. */
async function writeReadmeExample(dir: string): Promise<void> {
  const [example] = await readmeBlocks('ts');
  const { outputText } = ts.transpileModule(example, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  await writeFile(join(dir, 'app.mjs'), outputText);
}

test("the README's client example type-checks, strict and with library checks, against the client installed alone", async () => {
  const clientDir = installs.get('@confbus/client') as string;
  const [example] = await readmeBlocks('ts');
  const file = join(clientDir, 'typed-app.mts');
  await writeFile(file, example);
  // skipLibCheck off: the published .d.ts files are checked too, so a type naming @confbus/bus (an optional
  // peer, absent here) fails this test.
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    // A Node project's own @types/node (the repository's: the install folder has none of its own).
    typeRoots: [join(root, 'node_modules/@types')],
    types: ['node'],
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(problems, []);
});

test("the README's client example runs against the installed server", async () => {
  const serverDir = installs.get('confbus') as string;
  const server = startNodeProcess(
    join(serverDir, 'node_modules/confbus/bin/confbus.js'),
    ['server', '--server.port=0', '--server.address=127.0.0.1', '--confbus.server.sample-repository=true'],
    {},
    { cwd: serverDir },
  );
  const line = await server.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:(\d+)/, 60_000);
  const serverUrl = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] as string;
  const page = await fetch(`${serverUrl}/-/console/`);
  assert.equal(page.status, 200, 'the installed server serves the console page from @confbus/console');
  assert.match(await page.text(), /<script type="module"/);

  const clientDir = installs.get('@confbus/client') as string;
  for (const absent of ['@confbus/bus', 'rabbitmq-client', '@platformatic/kafka']) {
    assert.ok(
      !existsSync(join(clientDir, 'node_modules', absent)),
      `the client alone does not install ${absent}`,
    );
  }
  await writeReadmeExample(clientDir);
  const port = await reserveFreePort();
  startNodeProcess(
    join(clientDir, 'app.mjs'),
    [
      `--spring.cloud.config.uri=${serverUrl}`,
      '--spring.application.name=sample',
      '--spring.profiles.active=dev',
      `--server.port=${port}`,
    ],
    {},
    { cwd: clientDir },
  );
  const dynamic = await waitFor('the example service to answer /dynamic', async () => {
    const response = await getJson(`http://127.0.0.1:${port}/dynamic`);
    return response.status === 200 ? response.body : undefined;
  });
  assert.deepEqual(dynamic, { profile: 'dev', comment: 'development settings for sample' });
  const stable = await getJson(`http://127.0.0.1:${port}/static`);
  assert.deepEqual(stable.body, { profile: 'dev', comment: 'development settings for sample' });
});

test('the client installed without @confbus/bus says what to install when the bus is enabled', async () => {
  const clientDir = installs.get('@confbus/client') as string;
  await writeReadmeExample(clientDir);
  // No server is needed: without fail-fast the client starts on local settings, then starts the bus.
  const failure = await run(
    process.execPath,
    [
      join(clientDir, 'app.mjs'),
      '--spring.cloud.config.uri=http://127.0.0.1:1',
      '--spring.cloud.bus.enabled=true',
      '--server.port=0',
    ],
    { cwd: clientDir },
  ).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  assert.ok(failure, 'the start fails');
  assert.notEqual(failure.code, 0);
  assert.match(failure.stderr, /CONFBUS_BUS_NOT_INSTALLED/);
  assert.match(failure.stderr, /npm install @confbus\/bus/);
});
