/** `GET /actuator/prometheus` (text exposition, as Spring Boot's micrometer endpoint) and the request hook. */
import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from './server-metrics.js';

export const PROMETHEUS_PATH = '/actuator/prometheus';

export function registerMetricsRoutes(app: FastifyInstance, metrics: ServerMetrics): void {
  // A callback hook: no promise per request on the hot path.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest({
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });

  app.get(PROMETHEUS_PATH, async (_request, reply) => {
    const { contentType, text } = await metrics.exposition();
    reply.type(contentType);
    return text;
  });
}
