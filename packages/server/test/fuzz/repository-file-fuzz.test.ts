// Repository file fuzzing against a real server (issue #15). Thousands of seeded hostile files — placeholder
// bombs, deep nesting, long property names, many documents, profile expressions, alias bombs, files over the
// size limit, bytes that are not text — each requested as JSON and as a rendered file: every answer is 200 or
// a named error (CONFBUS_CONFIG_PARSE / CONFBUS_CONFIG_LIMIT, never CONFBUS_INTERNAL), no event-loop stall over
// 100 ms, bounded heap, and other applications keep being served.
// Reproduce with CONFBUS_FUZZ_SEED=<seed>; CONFBUS_FUZZ_CASES changes the count.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Picker, confirmStalls, heapAfterGc, picker, watchEventLoop } from '@confbus/testkit/fuzz';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const SEED = Number(process.env.CONFBUS_FUZZ_SEED ?? 0xf11e5);
const CASES = Number(process.env.CONFBUS_FUZZ_CASES ?? 2000);
const STALL_LIMIT_MS = 100;
const MAX_FILE_BYTES = 4 * 1024;
const CONCURRENCY = 4;

function placeholderBomb(p: Picker): string {
  const lines = ['p0: "xx"'];
  for (let i = 1, n = p.int(5, 40); i <= n; i++) lines.push(`p${i}: "\${p${i - 1}}\${p${i - 1}}"`);
  return `${lines.join('\n')}\n`;
}

/** One hostile file; the extension decides the codec. */
function generateFile(p: Picker): { extension: string; content: string | Buffer } {
  const kind = p.int(0, 13);
  switch (kind) {
    case 0:
      return { extension: 'yml', content: placeholderBomb(p) };
    case 1:
      return {
        extension: 'properties',
        content: `a=\${${'${'.repeat(p.int(10, 600))}x${'}'.repeat(p.int(0, 600))}}\n`,
      };
    case 2:
      return {
        extension: 'yml',
        content: `a: ${'['.repeat(p.int(50, 1200))}${']'.repeat(p.int(0, 1200))}\n`,
      };
    case 3:
      return {
        extension: 'properties',
        content: `${Array.from({ length: p.int(50, 1000) }, () => 'k').join('.')}=1\n`,
      };
    case 4: {
      const depth = p.int(10, 60);
      return {
        extension: 'yml',
        content: `${Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} v\n`,
      };
    }
    case 5:
      return {
        extension: 'yml',
        content: Array.from({ length: p.int(10, 100) }, (_, i) => `d${i}: ${i}`).join('\n---\n'),
      };
    case 6: {
      const expression = p.pick([
        `${'('.repeat(p.int(10, 1500))}dev${')'.repeat(p.int(0, 1500))}`,
        `${'!'.repeat(p.int(10, 1500))}dev`,
        Array.from({ length: p.int(2, 200) }, (_, i) => `p${i}`).join(p.pick([' & ', ' | ', ','])),
      ]);
      return {
        extension: 'yml',
        content: `spring.config.activate.on-profile: "${expression}"\na: 1\n---\nb: 2\n`,
      };
    }
    case 7: {
      const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1, n = p.int(3, 12); i <= n; i++) {
        const prev = String.fromCharCode(96 + i);
        lines.push(
          `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`,
        );
      }
      return { extension: 'yml', content: `${lines.join('\n')}\n` };
    }
    case 8:
      return {
        extension: p.pick(['yml', 'properties']),
        content: `big: ${'v'.repeat(p.int(MAX_FILE_BYTES - 1000, MAX_FILE_BYTES + 5000))}\n`,
      };
    case 9:
      return {
        extension: p.pick(['yml', 'properties']),
        content: Buffer.from(Array.from({ length: p.int(1, 1000) }, () => p.int(0, 255))),
      };
    case 10:
      return {
        extension: 'yml',
        content: Array.from(
          { length: p.int(20, 60) },
          (_, i) => `key${i}:\n  n: "\${key${Math.max(0, i - 1)}.n}-${i}"`,
        ).join('\n'),
      };
    case 11:
      return {
        extension: 'properties',
        content: `__proto__=x\nconstructor.prototype.polluted=yes\n${'a'.repeat(p.int(1, 2000))}=${'\\'.repeat(p.int(0, 50))}\n`,
      };
    case 12:
      return {
        extension: 'yml',
        content: `a: !!js/function "x"\nb: !!binary aGVsbG8=\nc: ${'"'.repeat(p.int(1, 3))}\n`,
      };
    default:
      return {
        extension: 'yml',
        content: `spring.profiles: dev\nkey: ${'${missing:'.repeat(p.int(1, 200))}d${'}'.repeat(p.int(1, 200))}\n`,
      };
  }
}

describe('repository file fuzz', () => {
  let remote: GitRemote;
  let server: TestServer;
  const files = new Map<string, string | Buffer>();
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  before(async () => {
    const p = picker(SEED);
    for (let i = 0; i < CASES; i++) {
      const { extension, content } = generateFile(p);
      files.set(`app${i}.${extension}`, content);
    }
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'shared: yes\n', 'healthy.yml': 'ok: true\n' });
    // Thousands of files: written directly and added with one `git add`, not one process per file.
    const work = (await remote.git('rev-parse', '--show-toplevel')).trim();
    await Promise.all([...files].map(([name, content]) => writeFile(join(work, name), content)));
    await remote.git('add', '-A');
    await remote.git('commit', '--quiet', '-m', 'hostile files');
    await remote.git('push', '--quiet', 'origin', 'master');
    server = await startServer();
  });

  const startServer = () =>
    startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'confbus.server.max-file-bytes': String(MAX_FILE_BYTES),
      // One commit for the whole run: no upstream check per request.
      'spring.cloud.config.server.git.refresh-rate': '-1',
      'logging.level.root': 'fatal',
    });

  after(async () => {
    agent.destroy();
    await server?.stop();
    await remote?.remove();
  });

  function get(path: string, base = server.base): Promise<{ status: number; body: string }> {
    const url = new URL(base);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  it(`${CASES} generated files: named errors only, no stall over ${STALL_LIMIT_MS} ms, heap bounded`, async (t) => {
    const apps = [...files.keys()].map((file) => file.replace(/\.[a-z]+$/, ''));
    const statuses = new Map<string, number>();
    await get('/healthy/default'); // warm up (JIT, worker start) before measuring
    const heapBefore = heapAfterGc();
    const stalls = watchEventLoop();
    let next = 0;
    // Which requests were in flight during a stall, for the failure message.
    const inFlight = new Set<string>();
    const suspects = new Set<string>();
    let lastTick = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - lastTick);
      if (now - lastTick > STALL_LIMIT_MS) for (const path of inFlight) suspects.add(path);
      lastTick = now;
    }, 5);
    const worker = async (): Promise<void> => {
      while (next < apps.length) {
        const index = next++;
        const app = apps[index] as string;
        const path =
          index % 2 === 0 ? `/${app}/default` : `/${app}-default.${index % 4 === 1 ? 'yml' : 'properties'}`;
        inFlight.add(path);
        const { status, body } = await get(path);
        inFlight.delete(path);
        let code = 'none';
        if (status !== 200) {
          code = String((JSON.parse(body) as { code?: unknown }).code);
          assert.ok(
            status === 500 && (code === 'CONFBUS_CONFIG_PARSE' || code === 'CONFBUS_CONFIG_LIMIT'),
            `${path}: ${status} ${body.slice(0, 200)}; seed=${SEED}`,
          );
        }
        const key = `${status} ${code}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    clearInterval(ticker);
    const longestStall = stalls.stop();
    const heapGrowth = heapAfterGc() - heapBefore;

    // A gap in the event loop may be the shared machine's scheduler: every request in flight during one is
    // replayed alone on fresh servers (cold caches), twice; a stall it causes both times is ours.
    const confirmed =
      longestStall < STALL_LIMIT_MS
        ? []
        : await confirmStalls(suspects, {
            limitMs: STALL_LIMIT_MS,
            fresh: async () => {
              const fresh = await startServer();
              return {
                replay: (path) => get(path, fresh.base).then(() => undefined),
                close: () => fresh.stop(),
              };
            },
            describe: (path) => path,
          });
    assert.deepEqual(
      confirmed,
      [],
      `requests that stall the event loop over ${STALL_LIMIT_MS} ms; seed=${SEED}`,
    );
    assert.ok(
      heapGrowth < 96 * 1024 * 1024,
      `heap grew ${(heapGrowth / 1048576).toFixed(1)} MB; seed=${SEED}`,
    );
    assert.equal((await get('/healthy/default')).status, 200, 'still serving');
    t.diagnostic(
      `seed=${SEED} cases=${CASES}: longest stall ${longestStall.toFixed(0)} ms (ticker ${maxGap.toFixed(0)} ms, ` +
        `${suspects.size} suspects replayed, none confirmed), heap growth ${(heapGrowth / 1048576).toFixed(1)} MB, ` +
        `answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
  });
});
