/** `GET /actuator/prometheus` (text exposition, as Spring Boot's micrometer endpoint) and the requests counted. */
import type { FastifyInstance } from 'fastify';
import type { AnsweredRequests } from '../support/answered-requests.js';
import type { ServerMetrics } from './server-metrics.js';

export const PROMETHEUS_PATH = '/actuator/prometheus';

export function registerMetricsRoutes(
  app: FastifyInstance,
  answered: AnsweredRequests,
  metrics: ServerMetrics,
): void {
  answered.add(({ method, route, status, ms }) =>
    metrics.observeRequest({ method, route, status, seconds: ms / 1000 }),
  );

  app.get(PROMETHEUS_PATH, async (_request, reply) => {
    const { contentType, text } = await metrics.exposition();
    reply.type(contentType);
    return text;
  });
}
