// ConsoleEventStream's time bound, over a real socket: a stream its client stopped reading is dropped once it has
// stayed full for drainTimeoutMs, even with little waiting for it (below maxBufferedBytes), and its slot is freed.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { type Logger, silentLogger } from '@confbus/core';
import Fastify from 'fastify';
import { ConsoleEventStream } from '../../src/console/event-stream.js';
import { AnsweredRequests } from '../../src/support/answered-requests.js';

describe('ConsoleEventStream: a client that stops reading', () => {
  // The timeout is a safety net: without the time bound the drop never comes.
  it(
    'is dropped after drainTimeoutMs without a drain, and its slot is freed',
    { timeout: 30_000 },
    async () => {
      let dropped: (message: string) => void = () => undefined;
      const droppedMessage = new Promise<string>((resolve) => (dropped = resolve));
      const logger: Logger = { ...silentLogger, warn: (_fields, message) => dropped(message ?? '') };
      const app = Fastify();
      const events = new ConsoleEventStream({
        maxStreams: 1,
        maxStreamsPerClient: 1,
        heartbeatMs: 60_000,
        maxBufferedBytes: 1_000_000_000,
        drainTimeoutMs: 100,
        answered: new AnsweredRequests(app, () => 'anonymous'),
        logger,
      });
      let opened: (response: ServerResponse) => void = () => undefined;
      const response = new Promise<ServerResponse>((resolve) => (opened = resolve));
      app.get('/events', (request, reply) => {
        events.open(request, reply);
        opened(reply.raw);
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      const socket = connect({ host: '127.0.0.1', port });
      socket.on('error', () => undefined);
      try {
        socket.write('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        const stream = await response;
        socket.pause();
        // Fill the socket until Node holds data for it (the kernel's buffers are full), then stop sending.
        const notice = { id: 'x'.repeat(60_000), destination: '**' };
        while (!stream.writableNeedDrain) {
          events.publish('refresh', notice);
          await nextTurn();
        }
        assert.ok(stream.writableLength < 1_000_000_000);
        assert.match(await droppedMessage, /not read for 100 ms/);
        assert.equal(events.openStreams, 0, 'the slot is free again');
      } finally {
        socket.destroy();
        events.close();
        await app.close();
      }
    },
  );
});
