/**
 * `/actuator` (Boot's discovery page: a link per endpoint), `/actuator/info` (version and build commit), and
 * a 404 JSON for any other `/actuator/...` path, so that none ever falls through to the configuration routes
 * (`/actuator/env` would otherwise be the environment of an application named `actuator`; a stock Spring
 * server has that trap for the endpoints it does not expose).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';
import type { BuildInfo } from './build-info.js';

/** Endpoint ids this server answers, with their path below /actuator (templated ones end in `{...}`). */
const ENDPOINTS: Record<string, string> = {
  health: 'health',
  'health-path': 'health/{*path}',
  info: 'info',
  prometheus: 'prometheus',
  'refresh-events': 'refresh-events',
};

export function registerActuatorRoutes(app: FastifyInstance, build: BuildInfo): void {
  const anyCaller = { config: { access: 'authenticated' as const } };
  app.get('/actuator', anyCaller, async (request) => {
    const base = `${request.protocol}://${request.host}/actuator`;
    const links: Record<string, { href: string; templated: boolean }> = {
      self: { href: base, templated: false },
    };
    for (const [id, path] of Object.entries(ENDPOINTS)) {
      links[id] = { href: `${base}/${path}`, templated: path.includes('{') };
    }
    return { _links: links };
  });

  app.get('/actuator/info', anyCaller, async () => ({
    app: { name: 'confbus', version: build.version },
    build: { name: build.name, version: build.version, ...(build.time ? { time: build.time } : {}) },
    ...(build.commit ? { git: { commit: { id: build.commit.slice(0, 7), full: build.commit } } } : {}),
  }));

  app.all('/actuator/*', async (request: FastifyRequest) => {
    throw new ConfbusError(
      serverErrors.CONFBUS_NO_SUCH_ENDPOINT,
      `No actuator endpoint at ${request.url.split('?')[0]} (see GET /actuator)`,
    );
  });
}
