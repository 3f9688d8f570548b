/**
 * The contract gate over HTTP:
 *   POST /contracts/published              a service's contract ({application, instance, schema}) → 202
 *   GET  /actuator/contract-gate/published every distinct published contract ({contracts: [{application, name,
 *                                          schema}]}): what `confbus check --server` enforces beside the repository's
 *                                          (not GET /contracts/published: that is application `contracts`'s environment)
 *   GET  /actuator/contract-gate           the holds (each violation with file and line) and the releases
 *   POST /actuator/contract-gate/release   {application, commit, reason} → the hold released, audited
 * Behind basic auth when it is on, as every endpoint; a JSON body is required (a cross-site form cannot post one).
 */
import { ConfbusError } from '@confbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serverErrors } from '../errors.js';
import type { HoldOperations } from './hold-operations.js';
import { MAX_PUBLISHED_SCHEMA_BYTES, type PublishedContracts } from './published-contracts.js';

export interface GateRoutesOptions {
  readonly published: PublishedContracts;
  readonly holds: HoldOperations;
  /** Who asks (the security hook's principal, `anonymous` without auth): recorded in the audit log. */
  readonly principalOf: (request: FastifyRequest) => string;
}

const NAME = /^[A-Za-z0-9._-]{1,200}$/;
const COMMIT = /^[0-9a-f]{40}$/;

export function registerGateRoutes(app: FastifyInstance, options: GateRoutesOptions): void {
  const { published, holds } = options;
  app.post(
    '/contracts/published',
    { bodyLimit: MAX_PUBLISHED_SCHEMA_BYTES + 4096 },
    async (request, reply) => {
      const body = jsonBody(request);
      const application = text(body, 'application', NAME);
      const instance = text(body, 'instance', /^.{1,200}$/);
      const schema = body.schema;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
        throw bad("'schema' must be a JSON Schema object");
      published.publish({ application, instance, schema: schema as Record<string, unknown> });
      reply.code(202);
      return { application, instance, contracts: published.contractsOf(application).length };
    },
  );

  // Schemas, not values: a viewer may read them (the route's access is checked like any actuator read).
  app.get('/actuator/contract-gate/published', { config: { access: 'viewer' as const } }, async () => ({
    contracts: published.applications().flatMap((application) => published.contractsOf(application)),
  }));

  app.get('/actuator/contract-gate', { config: { access: 'viewer' as const } }, () => holds.list());

  app.post(
    '/actuator/contract-gate/release',
    { config: { access: 'operator' as const } },
    async (request) => {
      const released = await holds.release({
        ...releaseFieldsOf(request),
        by: options.principalOf(request),
        remoteAddress: request.ip,
      });
      return { released };
    },
  );
}

/** A release's JSON body, checked (the console's release route reads it the same way). */
export function releaseFieldsOf(request: FastifyRequest): {
  application: string;
  commit: string;
  reason: string;
} {
  const body = jsonBody(request);
  return {
    application: text(body, 'application', NAME),
    commit: text(body, 'commit', COMMIT),
    reason: text(body, 'reason', /^.{1,500}$/),
  };
}

function jsonBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
    throw bad('the body must be JSON (Content-Type: application/json)');
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('the body must be a JSON object');
  return body as Record<string, unknown>;
}

function text(body: Record<string, unknown>, field: string, pattern: RegExp): string {
  const value = body[field];
  if (typeof value !== 'string' || !pattern.test(value)) throw bad(`'${field}' is missing or malformed`);
  return value;
}

function bad(message: string): ConfbusError {
  return new ConfbusError(serverErrors.CONFBUS_GATE_BAD_REQUEST, message);
}
