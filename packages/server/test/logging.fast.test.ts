// The server's log lines: JSON with ISO times or pretty lines (auto: by TTY), the format setting's errors, the
// start-up summary with secrets masked, and the opt-in access log.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { SettingsError, resolveSettings } from '@confbus/core';
import { createLogger, loggerFromSettings, serverSettingSpecs } from '@confbus/server';
import { type TestServer, startTestServer } from './server-harness.js';

/** The uri the fake repository reports (its property sources are named after it). */
const FAKE_URI = 'fake://config';

/** A destination that keeps what is written; `isTTY` as a terminal or a pipe would say. */
function capture(isTTY: boolean) {
  const lines: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    }),
    { isTTY },
  );
  return { stream, lines };
}

describe('server log format', () => {
  it('writes JSON lines with ISO-8601 times when stdout is not a terminal (auto)', () => {
    const out = capture(false);
    createLogger({ level: 'info', destination: out.stream }).info({ app: 'foo' }, 'hello');
    const line = JSON.parse(out.lines[0] ?? '') as Record<string, unknown>;
    assert.equal(line.msg, 'hello');
    assert.equal(line.app, 'foo');
    assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('writes readable lines on a terminal (auto) and when asked (pretty), secrets still redacted', () => {
    for (const [isTTY, format] of [
      [true, 'auto'],
      [false, 'pretty'],
    ] as const) {
      const out = capture(isTTY);
      createLogger({ level: 'info', format, destination: out.stream }).warn(
        { password: 'hunter2', repo: 'r1' },
        'upstream slow',
      );
      // Colours only on a terminal; compare without them.
      const text = stripVTControlCharacters(out.lines.join('\n'));
      assert.throws(() => JSON.parse(out.lines[0] ?? ''), SyntaxError, 'not JSON');
      assert.match(text, /WARN/);
      assert.match(text, /upstream slow/);
      assert.match(text, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
      assert.match(text, /repo: "r1"/);
      assert.ok(!text.includes('hunter2'), text);
    }
  });

  it('names the setting when the format is unknown', () => {
    const settings = resolveSettings(
      serverSettingSpecs,
      {
        args: ['--confbus.logging.format=xml'],
        env: {},
      },
      { unknownKeys: 'error' },
    );
    assert.throws(
      () => loggerFromSettings(settings),
      (error: unknown) =>
        error instanceof SettingsError &&
        error.key === 'confbus.logging.format' &&
        /one of auto, pretty, json \(got 'xml'\)/.test(error.message),
    );
  });
});

describe('server start-up summary and access log', () => {
  let files: Record<string, string>;
  let quiet: TestServer;
  let logged: TestServer;

  before(async () => {
    files = { 'foo.yml': 'a: 1\n' };
    const uri = FAKE_URI;
    [quiet, logged] = await Promise.all([
      startTestServer(
        {
          'spring.cloud.config.server.git.uri': uri,
          'spring.cloud.config.server.git.password': 'git-s3cret',
        },
        { files },
      ),
      startTestServer(
        { 'spring.cloud.config.server.git.uri': uri, 'confbus.logging.access-log': 'true' },
        { files },
      ),
    ]);
  });
  after(async () => {
    await Promise.all([quiet?.stop(), logged?.stop()]);
  });

  it('logs the version and the non-default settings once at start, secrets masked', () => {
    const started = quiet.logs.filter((l) => String(l.msg).startsWith('Config server listening on'));
    assert.equal(started.length, 1);
    const line = started[0] as { version?: string; settings?: Record<string, string> };
    assert.match(String(line.version), /^\d+\.\d+\.\d+/);
    assert.equal(line.settings?.['server.port'], '0 (argument)');
    assert.equal(line.settings?.['spring.cloud.config.server.git.password'], '****** (argument)');
    assert.equal(line.settings?.['server.address'], '127.0.0.1 (argument)');
    assert.ok(!JSON.stringify(quiet.logs).includes('git-s3cret'));
  });

  it('writes one access line per request only when confbus.logging.access-log is on', async () => {
    for (const server of [quiet, logged]) {
      assert.equal((await server.get('/foo/dev')).status, 200);
      assert.equal((await server.get('/foo/dev')).status, 200); // the repeat: a cache hit
      assert.equal((await server.get('/foo/dev/nope')).status, 404);
    }
    const access = (server: TestServer) => server.logs.filter((l) => l.msg === 'request');
    assert.deepEqual(access(quiet), []);
    assert.deepEqual(
      access(logged).map((l) => `${String(l.method)} ${String(l.url)} ${String(l.status)}`),
      ['GET /foo/dev 200', 'GET /foo/dev 200', 'GET /foo/dev/nope 404'],
    );
    for (const line of access(logged)) assert.equal(typeof line.ms, 'number');
  });
});
