/**
 * The rollouts API (docs/rollouts.md), beside the environment endpoints under the prefix:
 *   GET  /rollouts                                   → every rollout, newest first
 *   POST /rollouts {application(s), from, to?, label?, waves?, bakeSeconds?}   → 201, the rollout started
 *   GET  /rollouts/{id}                              → the rollout, its instances (on which commit, health)
 *   POST /rollouts/{id}/pause|resume|promote|abort|rollback {reason?}           → the rollout after it
 *   POST /rollouts/reports {application, profiles?, version, status, errors?, rejected?}  → what to serve
 * The reporting instance is named by its X-Confbus-Instance-Id header (or `instance` in the body).
 */
import { ConfbusError, instanceIdentityOf, parseInstanceTags } from '@confbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serverErrors } from '../errors.js';
import type { InstanceReport } from './instance-registry.js';
import type { OperatorAction, RolloutEngine } from './rollout-engine.js';
import { type RolloutPlan, type RolloutState, type WaveSpec, parseRolloutPlan } from './rollout-plan.js';

export const ROLLOUTS_PATH = '/rollouts';
const ACTIONS: readonly OperatorAction[] = ['pause', 'resume', 'promote', 'abort', 'rollback'];
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export interface RolloutRoutesOptions {
  readonly engine: RolloutEngine;
  readonly prefix: string;
  readonly defaults: { readonly waves: readonly WaveSpec[]; readonly bakeMs: number };
  /** The label's head, for a plan that names no `to` commit. */
  readonly headOf: (application: string, label: string | null) => Promise<string>;
  /** Where an operator's change is recorded (the audit log, when the server has one). */
  readonly audit: (entry: {
    action: string;
    rollout: string;
    by: string | undefined;
    reason?: string;
  }) => void;
}

export function registerRolloutRoutes(app: FastifyInstance, options: RolloutRoutesOptions): void {
  const { engine, prefix } = options;
  const base = `${prefix}${ROLLOUTS_PATH}`;
  app.get(base, async () => ({ rollouts: engine.list().map((state) => view(engine, state, false)) }));
  app.post(base, { bodyLimit: 64 * 1024 }, async (request, reply) => {
    const plan = await planOf(request.body, options);
    const state = await engine.start(plan, reasonOf(request.body) ?? 'started by an operator');
    options.audit({ action: 'start', rollout: state.id, by: operatorOf(request) });
    return reply.code(201).send(view(engine, state, true));
  });
  app.post(`${base}/reports`, { bodyLimit: 8 * 1024 }, async (request) => engine.report(reportOf(request)));
  app.get<{ Params: { id: string } }>(`${base}/:id`, async (request) =>
    view(engine, engine.get(request.params.id), true),
  );
  app.post<{ Params: { id: string; action: string } }>(
    `${base}/:id/:action`,
    { bodyLimit: 4 * 1024 },
    async (request) => {
      const { id, action } = request.params;
      if (!ACTIONS.includes(action as OperatorAction))
        throw new ConfbusError(
          serverErrors.CONFBUS_ROLLOUT_BAD_REQUEST,
          `No rollout action '${action}': use ${ACTIONS.join(', ')}`,
        );
      const reason = reasonOf(request.body);
      const state = await engine.act(id, action as OperatorAction, reason);
      options.audit({ action, rollout: id, by: operatorOf(request), ...(reason ? { reason } : {}) });
      return view(engine, state, true);
    },
  );
}

async function planOf(body: unknown, options: RolloutRoutesOptions): Promise<RolloutPlan> {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (
    input.to === undefined &&
    (typeof input.application === 'string' || Array.isArray(input.applications))
  ) {
    const first =
      typeof input.application === 'string' ? input.application : (input.applications as unknown[])[0];
    const label = typeof input.label === 'string' ? input.label : null;
    if (typeof first === 'string')
      return parseRolloutPlan({ ...input, to: await options.headOf(first, label) }, options.defaults);
  }
  return parseRolloutPlan(body, options.defaults);
}

function reasonOf(body: unknown): string | undefined {
  const reason = (body as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' && reason.trim() !== '' ? reason.slice(0, 500) : undefined;
}

function operatorOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (!authorization?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
  return decoded.slice(0, Math.max(0, decoded.indexOf(':')));
}

function reportOf(request: FastifyRequest): InstanceReport {
  const body = request.body;
  const bad = (message: string) => new ConfbusError(serverErrors.CONFBUS_ROLLOUT_BAD_REQUEST, message);
  if (typeof body !== 'object' || body === null) throw bad('A report is a JSON object');
  const input = body as Record<string, unknown>;
  const identity =
    instanceIdentityOf(request.headers) ??
    (typeof input.instance === 'string' && input.instance.trim() !== ''
      ? {
          id: input.instance.trim().slice(0, 512),
          tags: parseInstanceTags(typeof input.tags === 'string' ? input.tags : undefined),
        }
      : undefined);
  if (identity === undefined)
    throw bad('A report names its instance: header X-Confbus-Instance-Id, or "instance"');
  if (typeof input.application !== 'string' || input.application === '')
    throw bad("'application' (the name the instance fetches) is required");
  const version = input.version ?? null;
  if (version !== null && (typeof version !== 'string' || !COMMIT.test(version)))
    throw bad("'version' must be the commit the instance serves (40 or 64 hex digits), or null");
  if (typeof input.status !== 'string' || !/^[A-Z_]{1,32}$/.test(input.status))
    throw bad("'status' must be a health status such as UP or DOWN");
  const errors = input.errors === undefined ? 0 : Number(input.errors);
  if (!Number.isSafeInteger(errors) || errors < 0) throw bad("'errors' must be a count (0 or more)");
  const profiles = Array.isArray(input.profiles)
    ? input.profiles.filter((p): p is string => typeof p === 'string')
    : [];
  return {
    instance: identity.id,
    tags: identity.tags,
    application: input.application,
    profiles,
    version,
    status: input.status,
    errors,
    rejected: input.rejected === true,
  };
}

/** A rollout as the API and the console show it; `detailed` adds its instances. */
function view(engine: RolloutEngine, state: RolloutState, detailed: boolean) {
  if (!detailed) return state;
  return {
    ...state,
    instances: engine.instancesOf(state).map(({ entry, onNew, health }) => ({
      id: entry.id,
      tags: entry.tags,
      profiles: entry.profiles,
      side: onNew ? 'to' : 'from',
      served: [...entry.served.keys()],
      lastSeenAt: entry.lastSeenAt,
      health: health ?? null,
    })),
  };
}
