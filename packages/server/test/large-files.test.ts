// Files just within the default limits (confbus.server.max-file-bytes 1 MiB, max-file-documents 1,000), served
// by a server with the default settings (issue #15): every answer is right, and none stalls the event loop for
// 100 ms or more: parsing runs in a worker thread, documents come back in pieces, a large environment's JSON is
// built in slices and its renderings in the worker. A file of more documents answers CONFBUS_CONFIG_LIMIT.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { confirmStalls, watchEventLoop } from '@confbus/testkit/fuzz';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

const STALL_LIMIT_MS = 100;
const MAX_FILE_BYTES = 1024 * 1024;
const V2 = { accept: 'application/vnd.spring-cloud.config-server.v2+json' };

const lines = (count: number, line: (i: number) => string): string =>
  `${Array.from({ length: count }, (_, i) => line(i)).join('\n')}\n`;

/** Files near the default limits, and the properties each serves. */
const FILES = {
  // 25,000 keys in one document, nested as in real YAML.
  'keys.yml': { text: lines(25_000, (i) => `key${i}:\n  nested${i % 7}: value number ${i}`), keys: 25_000 },
  // 1,000 documents (the limit) of 25 keys each.
  'documents.yml': {
    text: lines(1_000, (d) => `${lines(25, (k) => `doc${d}.key${k}: value ${k} of ${d}`)}---`),
    keys: 25_000,
  },
  'flat.properties': { text: lines(30_000, (i) => `a.b.key${i}=value ${i} of it`), keys: 30_000 },
  'long-values.yml': { text: lines(1_000, (i) => `key${i}: ${'v'.repeat(1_000)}`), keys: 1_000 },
} as const;

interface Body {
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('files near the default limits', () => {
  let remote: GitRemote;
  let server: TestServer;

  const startServer = () =>
    startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.clone-on-start': 'true',
      // One commit for the whole test: no upstream check per request.
      'spring.cloud.config.server.git.refresh-rate': '-1',
    });

  before(async () => {
    remote = await createGitRemote();
    const files: Record<string, string> = Object.fromEntries(
      Object.entries(FILES).map(([name, { text }]) => [name, text]),
    );
    files['many-documents.yml'] = lines(20_000, (i) => `doc${i}: ${i}\nshared: ${i}\n---`);
    files['over-the-limit.yml'] = lines(1_001, (i) => `doc${i}: ${i}\n---`);
    for (const [name, text] of Object.entries(files))
      assert.ok(text.length < MAX_FILE_BYTES, `${name} is within max-file-bytes (${text.length})`);
    await remote.commit(files);
    server = await startServer();
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('answers files with more documents than confbus.server.max-file-documents with CONFBUS_CONFIG_LIMIT', async () => {
    for (const path of ['/many-documents/default', '/over-the-limit-default.yml']) {
      const response = await server.get(path);
      assert.equal(response.status, 500, path);
      const { code, message } = response.json() as { code: string; message: string };
      assert.equal(code, 'CONFBUS_CONFIG_LIMIT');
      assert.match(message, /many-documents\.yml|over-the-limit\.yml/);
      assert.match(message, /confbus\.server\.max-file-documents \(1000\)/);
    }
  });

  it('serves every file as JSON, v2 JSON and rendered files, without a stall of 100 ms', async (t) => {
    const requests = Object.keys(FILES).flatMap((file) => {
      const app = file.replace(/\.(yml|properties)$/, '');
      return [
        { path: `/${app}/default` },
        { path: `/${app}/default`, headers: V2 },
        ...['yml', 'properties', 'json'].map((format) => ({ path: `/${app}-default.${format}` })),
      ];
    });
    const suspects: typeof requests = [];
    let longest = 0;
    for (const request of requests) {
      const watch = watchEventLoop();
      const response = await server.get(request.path, request.headers);
      const stall = watch.stop();
      longest = Math.max(longest, stall);
      if (stall >= STALL_LIMIT_MS) suspects.push(request);
      assert.equal(response.status, 200, `${request.path}: ${response.body.slice(0, 300)}`);
      const app = request.path.slice(1).replace(/[-/]default.*$/, '');
      const file = Object.entries(FILES).find(([name]) => name.startsWith(`${app}.`));
      assert.ok(file, request.path);
      if (!request.path.endsWith('/default')) continue;
      const [source] = (response.json() as Body).propertySources.map((each) => Object.values(each.source));
      const keys = (response.json() as Body).propertySources.reduce(
        (sum, each) => sum + Object.keys(each.source).length,
        0,
      );
      assert.equal(keys, file[1].keys, request.path);
      if (request.headers === V2)
        assert.match(JSON.stringify(source?.[0]), /"origin":"\d+:\d+"/, 'v2 values carry their origin');
    }
    const confirmed = await confirmStalls(suspects, {
      limitMs: STALL_LIMIT_MS,
      fresh: async () => {
        const fresh = await startServer();
        return {
          replay: (request) => fresh.get(request.path, request.headers).then(() => undefined),
          close: () => fresh.stop(),
        };
      },
      describe: (request) => `${request.path}${request.headers ? ' (v2)' : ''}`,
    });
    assert.deepEqual(confirmed, [], `requests that stall the event loop ${STALL_LIMIT_MS} ms or more`);
    t.diagnostic(
      `longest stall ${longest.toFixed(0)} ms; ${suspects.length} suspects replayed, none confirmed`,
    );
  });
});
