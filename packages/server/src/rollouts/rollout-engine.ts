/**
 * The rollouts: starting them, answering "which commit does this instance get" for the serving path, taking the
 * fleet's health reports, and moving each running rollout on a tick — the judge first (a failing canary rolls
 * back at once), then the bake timer (next wave, or complete). Every change is kept in the store before it is
 * applied here, so a replica or a restart reads the same progress; the decision log says why, with figures.
 */
import { randomUUID } from 'node:crypto';
import { ConfbusError, type InstanceIdentity, type Logger } from '@confbus/core';
import type { Clock } from '../clock.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import { serverErrors } from '../errors.js';
import type { HealthRecord, JudgeSettings } from './fleet-judge.js';
import { InstanceRegistry, type InstanceEntry, type InstanceReport } from './instance-registry.js';
import {
  type RolloutPlan,
  type RolloutState,
  type OperatorAction,
  OPERATOR_ACTIONS,
  isActive,
  isHolding,
} from './rollout-plan.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { RolloutStore } from './rollout-store.js';
import { decideStep, logged } from './rollout-step.js';
import { PinnedRequests } from './pinned-requests.js';
import { commitFor, pickInstances } from './wave-membership.js';

export interface RolloutEngineOptions {
  readonly store: RolloutStore;
  readonly clock: Clock;
  readonly judge: JudgeSettings;
  /** How often instances report during a rollout (ms), told in every report answer. */
  readonly reportIntervalMs: number;
  /**
   * Tells the applications' instances to fetch again (a refresh on the bus, the watch stream): at a start, an
   * end, and whenever more instances join B (picks, a next wave), so that those that never report follow too.
   */
  readonly announce: (applications: readonly string[], commit: string) => Promise<void>;
  /** An operator paused or resumed a rollout: no instance moves, but what shows rollouts is told. */
  readonly statusChanged?: (state: RolloutState) => void;
  /** Throws when a commit cannot serve the plan's applications (unknown commit): checked before a start. */
  readonly verify: (plan: RolloutPlan) => Promise<void>;
  readonly logger: Logger;
  /** Where the judge's automatic rollbacks are recorded (operators' actions are audited by their routes). */
  readonly audit: AuditLog;
}

/** What an instance's report is answered: the commit it should serve, and whether to keep reporting. */
export interface ReportAnswer {
  readonly rollout: string | null;
  /** The commit this instance should be serving; null when no rollout holds its application. */
  readonly version: string | null;
  /** Report again after this many ms; 0: no rollout needs reports. */
  readonly reportIntervalMs: number;
}

export class RolloutEngine {
  private readonly states = new Map<string, RolloutState>();
  /** Per application, the newest rollout that decides its commits (running, paused, or ended on `from`). */
  private holding = new Map<string, RolloutState>();
  private readonly pinned = new PinnedRequests();
  /** One change at a time: a tick and an operator's action never interleave their read-modify-save. */
  private queue: Promise<unknown> = Promise.resolve();
  readonly registry = new InstanceRegistry();

  constructor(private readonly options: RolloutEngineOptions) {}

  /** Reads every recorded rollout (a restart resumes the running ones where the store says they are). */
  async open(): Promise<void> {
    for (const state of await this.options.store.load()) this.states.set(state.id, state);
    this.reindex();
  }

  /** Re-reads the store (another replica may have moved a rollout): the store is the truth. */
  reload(): Promise<void> {
    return this.serialized(() => this.open());
  }

  list(): RolloutState[] {
    return [...this.states.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  get(id: string): RolloutState {
    const state = this.states.get(id);
    if (!state) throw new ConfbusError(serverErrors.CONFBUS_ROLLOUT_NOT_FOUND, `No rollout '${id}'`);
    return state;
  }

  /** True when some rollout decides commits: the serving path's one check when none does. */
  get holds(): boolean {
    return this.holding.size > 0;
  }

  /**
   * The request as the rollouts answer it for this instance: pinned to the commit its wave is on, or unchanged
   * when no rollout holds the application or the label. An instance without an id gets the stable commit.
   */
  choose(request: EnvironmentRequest, identity: InstanceIdentity | undefined): EnvironmentRequest {
    const state = this.holdingFor(request.applications, request.label);
    if (state === undefined) return request;
    const facts = identity && { id: identity.id, tags: identity.tags, profiles: request.profiles };
    const commit = commitFor(state, facts);
    if (facts) this.registry.served(facts, request.applications, commit, this.options.clock.now());
    return this.pinned.pin(request, commit);
  }

  /** An instance's health report; the answer tells it which commit to serve. */
  report(report: InstanceReport): ReportAnswer {
    this.registry.reported(report, this.options.clock.now());
    const state = this.holdingFor([report.application], undefined);
    if (state === undefined) return { rollout: null, version: null, reportIntervalMs: 0 };
    const version = commitFor(state, {
      id: report.instance,
      tags: report.tags,
      profiles: report.profiles,
    });
    // An ended rollout still answers until the instance serves what it says, then lets it stop reporting.
    const keepReporting = isActive(state) || report.version !== version;
    return {
      rollout: state.id,
      version,
      reportIntervalMs: keepReporting ? this.options.reportIntervalMs : 0,
    };
  }

  /** Starts a rollout: verified, kept, then announced to the applications' instances. */
  start(plan: RolloutPlan, reason = 'started by an operator'): Promise<RolloutState> {
    return this.serialized(async () => {
      for (const name of plan.applications) {
        const running = this.holding.get(name);
        if (running && isActive(running))
          throw new ConfbusError(
            serverErrors.CONFBUS_ROLLOUT_CONFLICT,
            `Application '${name}' is already in rollout ${running.id} (${running.status}): promote, abort or roll it back first`,
          );
      }
      await this.options.verify(plan);
      const now = this.options.clock.now();
      const state: RolloutState = {
        id: randomUUID(),
        plan,
        status: 'running',
        wave: 0,
        waveStartedAt: now,
        picked: [],
        decisions: [
          { at: now, action: 'start', by: 'operator', reason, figures: { waves: plan.waves.length } },
        ],
        createdAt: now,
      };
      await this.commit(state);
      this.announce(state, plan.to);
      return state;
    });
  }

  /** pause, resume, promote, abort or roll back, by hand. */
  act(id: string, action: OperatorAction, reason?: string): Promise<RolloutState> {
    return this.serialized(async () => {
      const state = this.get(id);
      const rule = OPERATOR_ACTIONS[action];
      if (!rule.from.includes(state.status))
        throw new ConfbusError(
          serverErrors.CONFBUS_ROLLOUT_CONFLICT,
          `Rollout ${id} is ${state.status}: '${action}' applies to ${rule.from.join(' or ')} rollouts`,
        );
      const now = this.options.clock.now();
      const next: RolloutState = {
        ...state,
        status: rule.to,
        // A resumed wave bakes again in full: its canaries were not watched while paused.
        waveStartedAt: action === 'resume' ? now : state.waveStartedAt,
        decisions: logged(state, {
          at: now,
          action,
          by: 'operator',
          reason: reason ?? `${action} by an operator`,
        }),
      };
      await this.commit(next);
      if (action === 'pause' || action === 'resume') this.options.statusChanged?.(next);
      if (action === 'promote') this.announce(next, next.plan.to);
      if (action === 'abort' || action === 'rollback') this.announce(next, next.plan.from);
      return next;
    });
  }

  /** Moves every running rollout: picks, judges, bakes. Called every tick (install-rollouts.ts). */
  tick(): Promise<void> {
    return this.serialized(async () => {
      for (const state of this.list()) if (state.status === 'running') await this.step(state);
    });
  }

  /** The instances of a rollout as the console shows them: wave side, commit served, health. */
  instancesOf(
    state: RolloutState,
  ): Array<{ entry: InstanceEntry; onNew: boolean; health: HealthRecord | undefined }> {
    return this.registry.of(state.plan.applications, state.createdAt).map((entry) => ({
      entry,
      onNew: commitFor(state, entry) === state.plan.to,
      health: this.registry.healthOf(entry),
    }));
  }

  private async step(state: RolloutState): Promise<void> {
    const now = this.options.clock.now();
    const known = this.registry.of(state.plan.applications, state.createdAt);
    const picks = pickInstances(state, known);
    if (picks.length > 0) {
      const picked = [...state.picked];
      picked[state.wave] = [...(picked[state.wave] ?? []), ...picks];
      state = { ...state, picked };
      await this.commit(state);
      // Reporting canaries would learn it from their next report answer; Spring apps report nothing.
      this.announce(state, state.plan.to);
    }
    const outcome = decideStep(
      state,
      known,
      (entry) => this.registry.healthOf(entry),
      now,
      this.options.judge,
    );
    if (outcome.kind === 'wait') return;
    await this.commit(outcome.next);
    if (outcome.kind !== 'rollback') {
      this.announce(outcome.next, outcome.next.plan.to);
      return;
    }
    this.options.logger.warn(
      { rollout: state.id, ...outcome.figures },
      `Rollout rolled back: ${outcome.reason}`,
    );
    // No request made this change: the server's own judge is the principal, from no remote address.
    this.options.audit.record({
      action: 'rollout.rollback',
      target: `rollout ${state.id}`,
      principal: 'rollout-judge',
      remoteAddress: 'server',
      outcome: 'success',
      detail: outcome.reason,
    });
    this.announce(outcome.next, outcome.next.plan.from);
  }

  private holdingFor(
    applications: readonly string[],
    label: string | null | undefined,
  ): RolloutState | undefined {
    if (this.holding.size === 0) return undefined;
    for (const name of applications) {
      const state = this.holding.get(name);
      // `undefined` label: a report, which names no label (its application's rollout answers).
      if (state && (label === undefined || state.plan.label === label)) return state;
    }
    return undefined;
  }

  /** Keeps the state in the store, then here; the store refusing leaves everything as it was. */
  private async commit(state: RolloutState): Promise<void> {
    await this.options.store.save(state);
    this.states.set(state.id, state);
    this.reindex();
  }

  /** Newest rollout first claims its applications; a completed one claims them too, and decides nothing. */
  private reindex(): void {
    const holding = new Map<string, RolloutState>();
    const claimed = new Set<string>();
    for (const state of this.list()) {
      for (const name of state.plan.applications) {
        if (claimed.has(name)) continue;
        claimed.add(name);
        if (isHolding(state)) holding.set(name, state);
      }
    }
    this.holding = holding;
  }

  private announce(state: RolloutState, commit: string): void {
    this.options
      .announce(state.plan.applications, commit)
      .catch((error: unknown) =>
        this.options.logger.warn(
          { rollout: state.id, reason: error instanceof Error ? error.message : String(error) },
          'Could not announce the rollout change: instances follow at their next report or fetch',
        ),
      );
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
