/**
 * The opt-in access log (`confbus.logging.access-log`): one line per answered request, at info. Off by default
 * because a line per request would cost more than answering a cached request does; with it on, the
 * repeat-request fast path is bypassed so that every request is logged.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from '@confbus/core';

export function installAccessLog(app: FastifyInstance, logger: Logger): void {
  const log = logger.child({ component: 'access' });
  app.addHook('onResponse', (request, reply, done) => {
    log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        remote: request.ip,
      },
      'request',
    );
    done();
  });
}
