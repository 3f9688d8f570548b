#!/usr/bin/env node
// Bundles the lean entry of `confbus run` and `confbus render` (packages/cli/dist/follow-main.js) with what it
// imports into a few files under packages/cli/dist/bundle/. Those commands start a child only after confbus
// itself has started, and resolving and reading the ~250 module files of the config client, pino and yaml was
// most of that start (docs/benchmarks.md, `confbus run`). esbuild splits what is loaded on demand (keystores,
// the bus drivers, the template engine) into chunks of its own, so it stays on demand.
//
// Beside the bundle, inputs.json names the TypeScript build info of each workspace package it was made from and
// when it was made: bin/confbus.js runs the compiled entry instead when one of them has changed since (a `tsc -b`
// after `npm run build`), so a stale bundle never runs. A handful of stats, where checking every input file
// (about 400) took 7 ms of the start this exists to shorten. Run by `npm run build` and the CLI's prepack.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliDir = join(root, 'packages/cli');
const outdir = join(cliDir, 'dist/bundle');

/**
 * The client reads its version from the package.json one level above its own module (client-version.ts);
 * inside the bundle that path leads elsewhere, so the version is written in at bundle time.
 */
const clientVersionInline = {
  name: 'client-version-inline',
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]client[\\/]dist[\\/]client-version\.js$/ }, (args) => {
      const manifest = join(dirname(args.path), '../package.json');
      const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
      return { contents: `export function clientVersion() { return ${JSON.stringify(version)}; }\n` };
    });
  },
};

/**
 * Core reaches `yaml` through one function (core's codecs/yaml-library.ts, a static import there, so that
 * bundlers applications use follow it). In this bundle that module is replaced by a require() of yaml.cjs, a
 * one-file build of the same yaml written beside the chunks (below), made at the first YAML document decoded:
 * `run` without a YAML settings file never reads it, and even unrun inside a chunk yaml's code took about 7 ms to
 * compile. esbuild does not follow a require() made by createRequire, so none of yaml is in the chunks.
 */
const YAML_FILE = 'yaml.cjs';
const yamlBesideBundle = {
  name: 'yaml-beside-bundle',
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]core[\\/]dist[\\/]codecs[\\/]yaml-library\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('export function yamlLibrary('))
        throw new Error(`${args.path} no longer exports yamlLibrary() as this plugin expects`);
      const contents = [
        "import { createRequire } from 'node:module';",
        'let loaded;',
        `export function yamlLibrary() { return (loaded ??= createRequire(import.meta.url)('./${YAML_FILE}')); }`,
      ].join('\n');
      return { contents, resolveDir: dirname(args.path) };
    });
  },
};

const builtAtMs = Date.now();
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: [join(cliDir, 'dist/follow-main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS dependencies (yaml, pino) require Node's built-ins; an ES module has no require of its own.
  banner: {
    js: "import { createRequire as __confbusCreateRequire } from 'node:module'; const require = __confbusCreateRequire(import.meta.url);",
  },
  // Required at run time by name (only for a terminal): resolved from the installation, not bundled.
  external: ['pino-pretty'],
  // Mapped back to the TypeScript sources (through the compiled files' own maps): stack traces with
  // --enable-source-maps, and coverage of the CLI's child processes in the tests.
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [clientVersionInline, yamlBesideBundle],
});
await build({
  absWorkingDir: root,
  // The yaml that core itself resolves, so the bundle holds the version core was built and tested with.
  entryPoints: [createRequire(join(root, 'packages/core/package.json')).resolve('yaml')],
  outfile: join(outdir, YAML_FILE),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
/** The workspace packages (packages/<name>/dist/...) whose compiled files went into the bundle. */
const packageDirs = new Set(
  Object.keys(result.metafile.inputs)
    .map((input) => /^((?:packages|examples)\/[^/]+)\/dist\//.exec(input)?.[1])
    .filter((dir) => dir !== undefined),
);
const builds = [...packageDirs].map((dir) => relative(outdir, join(root, dir, 'tsconfig.tsbuildinfo')));
writeFileSync(join(outdir, 'inputs.json'), `${JSON.stringify({ builtAtMs, builds })}\n`);
