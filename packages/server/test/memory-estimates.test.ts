// The estimates confbus.server.cache.max-bytes is counted in (memory-estimates.ts) stay within 0.5–2 times the
// heap they stand for: many results of each shape are kept alive and the growth of the heap after a full GC,
// divided by their number, is compared with the estimate the cache weighs them by. An estimate that missed the
// properties (an Object.keys() of a Map counts none) lands far below 0.5. A real-tier file: a process of its own,
// so nothing else allocates or frees while the heap is measured.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { heapAfterGc } from '@confbus/testkit/fuzz';
import {
  type Environment,
  type PropertySource,
  type PropertyValue,
  decryptEnvironment,
  mergeForRendering,
} from '@confbus/core';
import { ConfigFileParser } from '../src/environment/config-file-parser.js';
import { EnvironmentCaches } from '../src/environment/environment-caches.js';
import { EnvironmentService } from '../src/environment/environment-service.js';
import { EnvironmentWorkers } from '../src/environment/environment-workers.js';
import {
  mergedPropertiesBytes,
  propertySourcesBytes,
  servedObjectBytes,
} from '../src/environment/memory-estimates.js';
import { ParsedFiles } from '../src/environment/parsed-files.js';
import type { ResolvedEnvironment } from '../src/environment/resolved-environment.js';
import { FakeConfigRepository } from './repositories/fake-config-repository.js';

const LOW = 0.5;
const HIGH = 2;

const workers = new EnvironmentWorkers();
const parser = new ConfigFileParser({ maxFileBytes: 1024 * 1024, maxFileDocuments: 1000, workers });
after(() => workers.close());

const lines = (count: number, line: (k: number) => string): string =>
  `${Array.from({ length: count }, (_, k) => line(k)).join('\n')}\n`;

/** Files of each shape; `i` makes every copy's keys and values its own (no string is shared between copies). */
const fileShapes: Record<string, { copies: number; file: (i: number) => [string, string] }> = {
  'YAML, 200 short keys': {
    copies: 100,
    file: (i) => [`a${i}.yml`, lines(200, (k) => `app${i}.key${k}: value-${k}-of-${i}`)],
  },
  'YAML, 50 groups of 8 nested keys': {
    copies: 60,
    file: (i) => [
      `n${i}.yml`,
      `app${i}:\n${lines(50, (g) => `  group${g}:\n${lines(8, (k) => `    k${k}: v${k}-${g}-${i}`).trimEnd()}`)}`,
    ],
  },
  '.properties, 300 keys with numbers': {
    copies: 80,
    file: (i) => [`p${i}.properties`, lines(300, (k) => `svc${i}.setting.number${k}=${k * 7 + i}`)],
  },
  'YAML, 20 values of 2,000 characters': {
    copies: 60,
    file: (i) => [`l${i}.yml`, lines(20, (k) => `cert${i}.k${k}: "${'x'.repeat(2000)}-${i}-${k}"`)],
  },
  'YAML, 100 documents of 3 keys': {
    copies: 50,
    file: (i) => [
      `d${i}.yml`,
      Array.from(
        { length: 100 },
        (_, d) => `spring.config.activate.on-profile: p${d}\nsvc${i}.a${d}: 1\nsvc${i}.b${d}: two-${d}\n`,
      ).join('---\n'),
    ],
  },
  'YAML, 2 keys (parsed inline)': {
    copies: 2000,
    file: (i) => [`t${i}.yml`, `app${i}.x: 1\napp${i}.y: yes-${i}\n`],
  },
};

/** Heap retained per result: `make` is called `count` times and every result kept until measured. */
async function retainedPer(count: number, make: (i: number) => Promise<unknown>): Promise<number> {
  const kept: unknown[] = [];
  const before = heapAfterGc();
  for (let i = 0; i < count; i++) kept.push(await make(i));
  const grown = heapAfterGc() - before;
  assert.equal(kept.length, count); // alive until here
  return grown / count;
}

function assertWithin(shape: string, estimated: number, measured: number): void {
  const ratio = estimated / measured;
  assert.ok(
    ratio >= LOW && ratio <= HIGH,
    `${shape}: estimated ${Math.round(estimated)} bytes, measured ${Math.round(measured)} (× ${ratio.toFixed(2)})`,
  );
}

/** A string of its own, flat, as a database driver decodes it (not a rope, not internalised). */
const decoded = (text: string): string => Buffer.from(text).toString('utf8');

describe('memory estimates against the measured heap', () => {
  for (const [shape, { copies, file }] of Object.entries(fileShapes)) {
    it(`weighs a parsed file within ${LOW}–${HIGH}× its heap: ${shape}`, async (t) => {
      const files = Object.fromEntries(Array.from({ length: copies }, (_, i) => file(i)));
      const paths = Object.keys(files);
      const repository = new FakeConfigRepository(files);
      const { commit } = await repository.resolve(null);
      const caches = new EnvironmentCaches({ maxEntries: 100_000, maxBytes: 2 ** 40 });
      const parsed = new ParsedFiles({ repository, parser, caches });
      await parsed.read(commit, paths[0]!, undefined); // the parser's first use costs more than a file
      const measured = await retainedPer(copies - 1, (i) => parsed.read(commit, paths[i + 1]!, undefined));
      const estimated = caches.parsed.weightKept / copies;
      t.diagnostic(`estimated ${Math.round(estimated)}, measured ${Math.round(measured)} bytes a file`);
      assertWithin(shape, estimated, measured);
    });
  }

  it(`weighs a built environment, rendered as .properties, within ${LOW}–${HIGH}× its heap`, async (t) => {
    const apps = 60;
    const files: Record<string, string> = {};
    for (let i = 0; i < apps; i++) {
      files[`app${i}.yml`] = lines(150, (k) => `app${i}.key${k}: value-${k}-of-${i}`);
      files[`app${i}-dev.yml`] = lines(50, (k) => `app${i}.key${k}: dev-${k}-of-${i}`);
    }
    const repository = new FakeConfigRepository(files);
    const service = new EnvironmentService({
      repository,
      displayUri: 'https://git.example/config.git',
      searchPaths: [],
      caches: new EnvironmentCaches({ maxEntries: 100_000, maxBytes: 2 ** 40 }),
      maxEnvironmentBytes: 1024 * 1024,
      parser,
      acceptEmpty: true,
    });
    const build = async (app: string): Promise<ResolvedEnvironment> => {
      const names = { name: app, applications: [app], profilesText: 'dev', profiles: ['dev'], label: null };
      const { resolved } = await service.find(names);
      await resolved.render('properties', false);
      return resolved;
    };
    const first = await build('app0');
    const environments: ResolvedEnvironment[] = [];
    // Measured with the parsed-file cache: an environment keeps its documents alive when that cache lets go.
    const measured = await retainedPer(apps - 1, async (i) => {
      environments.push(await build(`app${i + 1}`));
    });
    const estimated = environments.reduce((sum, each) => sum + each.estimatedBytes, 0) / environments.length;
    t.diagnostic(`estimated ${Math.round(estimated)}, measured ${Math.round(measured)} bytes an environment`);
    assert.ok(first.objectBytes > 0);
    assertWithin('an environment of two files', estimated, measured);
  });

  it(`weighs property sources read from a database within ${LOW}–${HIGH}× their heap`, async (t) => {
    for (const [shape, keys, valueLength] of [
      ['5 keys, short values', 5, 8],
      ['300 keys, short values', 300, 8],
      ['3,000 keys, values of 200 characters', 3000, 200],
    ] as const) {
      const count = Math.max(50, Math.floor(100_000 / keys));
      let estimated = 0;
      const measured = await retainedPer(count, (i) => {
        const source = new Map<string, PropertyValue>();
        for (let k = 0; k < keys; k++)
          source.set(decoded(`svc${i}.setting.key${k}`), decoded(`${i}-${k}-`.padEnd(valueLength, 'v')));
        const sources: PropertySource[] = [{ name: decoded(`app${i}-default (jdbc)`), source }];
        estimated += propertySourcesBytes(sources);
        return Promise.resolve(sources);
      });
      t.diagnostic(`${shape}: estimated ${Math.round(estimated / count)}, measured ${Math.round(measured)}`);
      assertWithin(shape, estimated / count, measured);
    }
  });

  it(`weighs a merged map within ${LOW}–${HIGH}× its heap (its keys and values are the sources')`, async (t) => {
    const sources = Array.from({ length: 40 }, (_, i): PropertySource[] => [
      { name: 'dev', source: new Map(Array.from({ length: 100 }, (_, k) => [`a${i}.k${k}`, `dev${k}`])) },
      { name: 'default', source: new Map(Array.from({ length: 400 }, (_, k) => [`a${i}.k${k}`, `v${k}`])) },
    ]);
    let estimated = 0;
    const measured = await retainedPer(sources.length, (i) => {
      const merged = mergeForRendering(sources[i]!);
      estimated += mergedPropertiesBytes(merged);
      return Promise.resolve(merged);
    });
    t.diagnostic(`estimated ${Math.round(estimated / sources.length)}, measured ${Math.round(measured)}`);
    assertWithin('a merged map of 400 keys', estimated / sources.length, measured);
  });

  it(`weighs the copy decryption makes of a source within ${LOW}–${HIGH}× its heap`, async (t) => {
    const count = 60;
    const stored = Array.from({ length: count }, (_, i): Environment => {
      const source = new Map<string, PropertyValue>();
      const origins: Record<string, string> = {};
      for (let k = 0; k < 300; k++) {
        source.set(decoded(`app${i}.key${k}`), decoded(k % 10 === 0 ? `{cipher}secret-${k}` : `value-${k}`));
        origins[`app${i}.key${k}`] = `${k + 1}:10`;
      }
      const sources: PropertySource[] = [{ name: `app${i}.yml`, source, origins }];
      return {
        name: `app${i}`,
        profiles: ['default'],
        label: null,
        version: null,
        state: null,
        propertySources: sources,
      };
    });
    const decryptValue = (cipherText: string): string => decoded(`decrypted ${cipherText}`);
    let estimated = 0;
    const measured = await retainedPer(count, async (i) => {
      const { environment: served } = await decryptEnvironment(stored[i]!, {
        prefixInvalidProperties: false,
        decryptValue,
      });
      estimated += servedObjectBytes(0, stored[i]!, served);
      return served;
    });
    t.diagnostic(`estimated ${Math.round(estimated / count)}, measured ${Math.round(measured)}`);
    assertWithin('a decrypted copy of 300 keys', estimated / count, measured);
  });
});
