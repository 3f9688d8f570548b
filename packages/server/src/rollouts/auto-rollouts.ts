/**
 * Rollouts on push (docs/rollouts.md, "Rollouts on push"): a rule's branch moving from commit A to B starts a
 * rollout A → B of the applications B changes, with the rule's plan, before B is served to anyone. It sits in
 * the serving path as a served-commit policy asked before the contract gate: a request that resolves the
 * branch's head to a commit not yet accepted is served the accepted one (A) while the rollout for B is started
 * (nothing waits: starting it builds environments through this same path), then as the rollout says for a
 * request without an instance id — the stable commit. Requests a rollout pinned are served as it chose.
 */
import type { Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { ResolvedRevision } from '../environment/config-repository.js';
import { type EnvironmentRequest, environmentRequest } from '../environment/environment-service.js';
import type { ServedCommitPolicy, ServedRevision } from '../environment/served-commit.js';
import type { AutoRolloutRule } from './auto-rollout-settings.js';
import type { RolloutEngine } from './rollout-engine.js';

export interface AutoRolloutsOptions {
  readonly rules: readonly AutoRolloutRule[];
  readonly engine: Pick<RolloutEngine, 'start' | 'choose' | 'reload'>;
  /** The default label's name (after the master/main fallback): a rule on it rolls out label-less requests. */
  readonly defaultLabel: () => Promise<string>;
  /** The applications whose effective configuration differs between the commits (limited to `only`). */
  readonly changedApplications: (
    from: string,
    to: string,
    only: readonly string[] | undefined,
  ) => Promise<readonly string[]>;
  readonly logger: Logger;
}

export class AutoRollouts implements ServedCommitPolicy {
  readonly #rules: ReadonlyMap<string, AutoRolloutRule>;
  /** Per branch, the head whose rollout (if any) is started: served as the rollouts say from then on. */
  readonly #accepted = new Map<string, string>();
  /** Per branch, the move being started (its commit); a later move of the branch is started after it. */
  readonly #pending = new Map<string, { readonly commit: string; readonly done: Promise<void> }>();
  #defaultLabel: string | undefined;

  constructor(private readonly options: AutoRolloutsOptions) {
    this.#rules = new Map(options.rules.map((rule) => [rule.branch, rule]));
  }

  decideNow(request: EnvironmentRequest, head: ResolvedRevision): ServedRevision | undefined {
    if (!this.#rules.has(head.label)) return head;
    // Not seen yet: decide() takes it as the first head (nothing to roll out from), or starts its rollout.
    return this.#accepted.has(head.label) ? this.#served(request, head) : undefined;
  }

  async decide(request: EnvironmentRequest, head: ResolvedRevision): Promise<ServedRevision> {
    if (!this.#rules.has(head.label)) return head;
    // Never awaited here: starting the rollout builds environments through the serving path itself.
    this.observe(head.label, head.commit).catch(() => undefined);
    if (this.#defaultLabel === undefined)
      this.options.defaultLabel().then(
        (label) => (this.#defaultLabel ??= label),
        () => undefined,
      );
    return this.#served(request, head);
  }

  /**
   * The branch's head is `commit` (a check moved it, or a request resolved it): once per commit, the rollout of
   * the move from the accepted head is started; resolves when it is (or when starting it failed, logged).
   */
  observe(branch: string, commit: string): Promise<void> {
    const rule = this.#rules.get(branch);
    if (rule === undefined) return Promise.resolve();
    const pending = this.#pending.get(branch);
    if (pending?.commit === commit) return pending.done;
    if (pending === undefined) {
      const accepted = this.#accepted.get(branch);
      // The first head seen (at start) is taken as served: there is no earlier commit to roll out from.
      if (accepted === undefined) this.#accepted.set(branch, commit);
      if (accepted === undefined || accepted === commit) return Promise.resolve();
    }
    // Moves of one branch are started one after the other, each from the head the previous one accepted.
    const done = (pending?.done ?? Promise.resolve())
      .then(() => this.#move(rule, commit))
      .finally(() => {
        this.#accepted.set(branch, commit);
        if (this.#pending.get(branch)?.done === done) this.#pending.delete(branch);
      });
    this.#pending.set(branch, { commit, done });
    return done;
  }

  /**
   * What a request no rollout pinned is served: the accepted head while the move to a newer one is being
   * started (nobody is served a commit before its rollout exists), then a held application's stable commit (a
   * request that raced the start, or one naming the default label by name, which a label-less plan does not
   * match: answered as a request without an instance id), else the head.
   */
  #served(request: EnvironmentRequest, head: ResolvedRevision): ServedRevision {
    // A rollout chose the head for this instance (a pin to another commit never reaches a policy).
    if (request.commit !== undefined) return head;
    const accepted = this.#accepted.get(head.label);
    if (accepted !== undefined && accepted !== head.commit) return { ...head, commit: accepted };
    const label = head.label === this.#defaultLabel ? null : head.label;
    // The repeat-request path comes here on every hit: no copy when the label is already the plan's.
    const asked = request.label === label ? request : { ...request, label };
    const chosen = this.options.engine.choose(asked, undefined);
    return chosen.commit === undefined || chosen.commit === head.commit
      ? head
      : { ...head, commit: chosen.commit };
  }

  async #move(rule: AutoRolloutRule, to: string): Promise<void> {
    const from = this.#accepted.get(rule.branch);
    if (from === undefined || from === to) return;
    const { engine, logger } = this.options;
    try {
      this.#defaultLabel ??= await this.options.defaultLabel();
      const applications = await this.options.changedApplications(from, to, rule.applications);
      if (applications.length === 0) {
        logger.info(
          { rule: rule.name, from, to },
          'Rollout on push: the commit changes no application of the rule',
        );
        return;
      }
      const label = rule.branch === this.#defaultLabel ? null : rule.branch;
      // From what each application's fleet is served: the previous head, or the commit a rolled-back rollout
      // still holds it on (rolling out from the head it refused would serve that head outside the waves).
      const byStable = new Map<string, string[]>();
      for (const application of applications) {
        const stable = engine.choose(requestFor(application, label), undefined).commit ?? from;
        byStable.set(stable, [...(byStable.get(stable) ?? []), application]);
      }
      for (const [stable, names] of byStable) {
        if (stable === to) continue;
        const state = await engine.start(
          { applications: names, label, from: stable, to, waves: rule.waves, bakeMs: rule.bakeMs },
          `push to ${rule.branch} (auto rollout '${rule.name}')`,
        );
        logger.info(
          { rollout: state.id, rule: rule.name, applications: names, from: stable, to },
          'Rollout on push started',
        );
      }
    } catch (error) {
      // Another replica may have started it (its write won): read the store before answering requests again.
      await engine.reload().catch(() => undefined);
      logger.warn(
        { rule: rule.name, from, to, reason: messageOf(error) },
        'Rollout on push not started: the commit is served as without the rule',
      );
    }
  }
}

function requestFor(application: string, label: string | null): EnvironmentRequest {
  return environmentRequest([application], ['default'], label);
}
