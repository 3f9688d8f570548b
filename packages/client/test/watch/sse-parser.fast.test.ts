// The client's event-stream reader: messages split anywhere across chunks, any line ending, comments skipped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseParser } from '../../src/watch/sse-parser.js';
import { watchUrls } from '../../src/watch/watch-urls.js';

describe('SseParser', () => {
  it('reads messages split across chunks and line endings, skipping heartbeats', () => {
    const text =
      'retry: 2000\n\n: heartbeat\n\nid: abc\r\nevent: change\r\ndata: {"a":1}\r\n\r\nevent: change\rdata: x\rdata: y\r\r\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new SseParser();
      const messages = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      assert.deepEqual(
        messages.map((m) => [m.event, m.data, m.id]),
        [
          ['change', '{"a":1}', 'abc'],
          ['change', 'x\ny', 'abc'],
        ],
        `cut at ${cut}`,
      );
    }
  });

  it('refuses a line longer than 1 MiB', () => {
    assert.throws(() => new SseParser().push('data: ' + 'x'.repeat(1024 * 1024 + 1)), /longer than 1 MiB/);
  });
});

describe('watchUrls', () => {
  it('puts /-/watch before the environment path, under the server prefix', () => {
    const urls = watchUrls(new URL('http://h:1/config/app/dev,db/feature(_)x'), 'feature/x');
    assert.equal(urls.stream.href, 'http://h:1/config/-/watch/app/dev,db/feature(_)x');
    assert.equal(urls.acks.href, 'http://h:1/config/-/watch/acks');
    assert.equal(
      watchUrls(new URL('http://h:1/app/default'), undefined).stream.pathname,
      '/-/watch/app/default',
    );
  });
});
