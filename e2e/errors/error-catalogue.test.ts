// The error catalogue, counted (as fastify's test counts its errors.js): every code declared with defineErrors is
// unique across the packages, listed in docs/errors.md, and raised somewhere in packages/*/src; every declared
// status is an HTTP error status, and core's reason phrases (it may not import node:http) are Node's.
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { busErrors } from '../../packages/bus/src/index.ts';
import { clientErrors } from '../../packages/client/src/index.ts';
import { contractErrors } from '../../packages/contracts/src/index.ts';
import { type ErrorDescriptor, coreErrors } from '../../packages/core/src/index.ts';
import { reasonPhrase } from '../../packages/core/src/internal.ts';
import { serverErrors } from '../../packages/server/src/index.ts';

const root = new URL('../../', import.meta.url).pathname;
const declared: Record<string, Readonly<Record<string, ErrorDescriptor>>> = {
  core: coreErrors,
  bus: busErrors,
  server: serverErrors,
  client: clientErrors,
  contracts: contractErrors,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') || entry.name.endsWith('.tsx') ? [full] : [];
  });
}

/** The source of every package except the declarations themselves. */
// The CLI declares no codes of its own: it raises core's (CONFBUS_USAGE, CONFBUS_BAD_SETTING, CONFBUS_PACKAGE_NOT_INSTALLED).
const sources = [...Object.keys(declared), 'cli']
  .flatMap((pkg) => sourceFiles(join(root, 'packages', pkg, 'src')))
  .filter((file) => !file.endsWith('/src/errors.ts'))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

/** Error classes that need not be ConfbusErrors: the base itself, and the browser console's view of a server answer. */
const PLAIN_ERROR_CLASSES = new Set(['ConfbusError', 'ApiError']);

const all = Object.entries(declared).flatMap(([pkg, errors]) =>
  Object.entries(errors).map(([key, descriptor]) => ({ pkg, key, descriptor })),
);

describe('the error catalogue', () => {
  it('declares each code once, under its own name, across all packages', () => {
    assert.ok(all.length >= 60, `only ${all.length} codes declared`);
    const seen = new Map<string, string>();
    for (const { pkg, key, descriptor } of all) {
      assert.equal(descriptor.code, key);
      assert.match(descriptor.code, /^CONFBUS_[A-Z0-9_]+$/);
      assert.equal(
        seen.get(descriptor.code),
        undefined,
        `${descriptor.code} declared by ${seen.get(key)} and ${pkg}`,
      );
      seen.set(descriptor.code, pkg);
      assert.ok(descriptor.description.length > 20, `${descriptor.code} needs a description`);
    }
  });

  it('lists every code in docs/errors.md with its status, and nothing else', () => {
    const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `(CONFBUS_[A-Z0-9_]+)` +\| (\d{3})/gm)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    assert.deepEqual(rows.sort(), all.map(({ descriptor }) => [descriptor.code, descriptor.status]).sort());
  });

  it('raises every code somewhere in packages/*/src', () => {
    const unused = all
      .map(({ descriptor }) => descriptor.code)
      // `.CODE` on a descriptor table, or `'CODE'` for ConfigClientError's string codes.
      .filter((code) => !sources.includes(`.${code}`) && !sources.includes(`'${code}'`));
    assert.deepEqual(unused, []);
  });

  it('declares every code named in packages/*/src', () => {
    const codes = new Set(all.map(({ descriptor }) => descriptor.code));
    const named = new Set(
      readdirSync(join(root, 'packages'))
        .filter((pkg) => pkg !== 'testkit') // its CONFBUS_* are environment variables of the tests
        .flatMap((pkg) => sourceFiles(join(root, 'packages', pkg, 'src')))
        .flatMap((file) => readFileSync(file, 'utf8').match(/CONFBUS_[A-Z0-9_]+/g) ?? []),
    );
    assert.deepEqual(
      [...named].filter((code) => !codes.has(code)),
      [],
    );
  });

  it('derives every error class in packages/*/src from ConfbusError', () => {
    const plain = readdirSync(join(root, 'packages'))
      .flatMap((pkg) => sourceFiles(join(root, 'packages', pkg, 'src')))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/class (\w+) extends (?:Error|TypeError|RangeError)\b/g)]
          .map((m) => m[1]!)
          .filter((name) => !PLAIN_ERROR_CLASSES.has(name))
          .map((name) => `${name} in ${file.slice(root.length)}`),
      );
    assert.deepEqual(plain, []);
  });

  it('declares HTTP error statuses, with the reason phrases Node writes', () => {
    for (const { descriptor } of all) {
      assert.ok(descriptor.status >= 400 && descriptor.status <= 599, descriptor.code);
      assert.equal(reasonPhrase(descriptor.status), STATUS_CODES[descriptor.status], descriptor.code);
    }
    for (const [status, phrase] of Object.entries(STATUS_CODES)) {
      if (Number(status) >= 400) assert.equal(reasonPhrase(Number(status)), phrase, status);
    }
  });
});
