/**
 * The contract gate: which commit each application is served (served-commit.ts's one hook). The label's head
 * when every contract of the application holds there; otherwise the newest commit on the head's first-parent
 * line that passed (within `maxHistory` commits), with the head named as held back. Holds are computed, never
 * stored: from the commits and their repository contracts, the published contracts and the operator's releases,
 * so every replica serving the same Git state and hearing the same bus decides the same, before and after a
 * restart. A later commit that passes releases the hold by itself.
 */
import type { Logger } from '@confbus/core';
import { eachWithin } from '@confbus/core/internal';
import type { ResolvedRevision } from '../environment/config-repository.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import type { ServedCommitPolicy, ServedRevision } from '../environment/served-commit.js';
import { LruCache } from '../support/lru-cache.js';
import type { ApplicationVerdict, CommitVerdicts, GateViolation } from './commit-verdicts.js';
import type { GateReleases } from './gate-releases.js';

export interface ContractGateOptions {
  readonly verdicts: CommitVerdicts;
  readonly firstParent: (commit: string) => Promise<string | undefined>;
  /** Commits walked back from a head that fails before giving up holding (confbus.contracts.gate.max-history). */
  readonly maxHistory: number;
  readonly releases: GateReleases;
  readonly logger: Pick<Logger, 'info' | 'warn'>;
  /**
   * Lets go of the environments built at a commit no longer served (a head a newer head's verdict superseded):
   * the environment service's forgetCommit. A verdict builds every environment its push changes.
   */
  readonly forgetCommit?: (commit: string) => void;
}

/** An application held back at a head. */
export interface Hold {
  readonly application: string;
  /** The head that breaks a contract (not served). */
  readonly heldHead: string;
  /**
   * The commit served instead: the newest that passed. Undefined when none within the history walked passed:
   * the head is then served (nothing valid to hold at) and the violations are still reported.
   */
  readonly servedCommit: string | undefined;
  readonly violations: readonly GateViolation[];
  readonly errors: readonly string[];
}

/** A push's verdict: the applications judged, those that passed and those held. */
export interface GateVerdict {
  readonly commit: string;
  readonly passed: readonly string[];
  readonly held: readonly Hold[];
  /** Every application the commit knows (a contract or a configuration file of its own). */
  readonly applications: readonly string[];
  /** Environments judged (built and validated, not inherited). */
  readonly environments: number;
}

const DECISIONS_KEPT = 20_000;
/** Applications judged at once: enough to keep the build gate's slots busy. */
const JUDGED_AT_ONCE = 16;

interface Decision {
  readonly head: string;
  readonly generation: number;
  readonly served: string;
}

export class ContractGate implements ServedCommitPolicy {
  /** Decisions per (head, requested applications); bumped generation: published contracts or releases changed. */
  readonly #decisions = new LruCache<string, Promise<Decision>>(DECISIONS_KEPT);
  /**
   * The decision last settled per requested applications (the decisions' key without the head), read at once by
   * the fast path. Keyed by name, not by request object: a request with a version hint or a rollout's choice is a
   * new object each time, and a hinted repeat must still be answered at once. Read with peek(): a repeat request
   * costs one Map lookup, not an LRU reordering; each decision (every new head) puts its name back as newest.
   */
  readonly #settled = new LruCache<string, Decision>(DECISIONS_KEPT);
  #generation = 0;
  /** The holds found by the newest judgement of a head, per application (health, metrics, console). */
  readonly #holds = new Map<string, Hold>();
  /** Judgements started: only the newest lets go of what the heads before it left (#shed). */
  #judgements = 0;
  /** The commits served after the newest judgement: its head, and the commit each held application is served. */
  #served: ReadonlySet<string> = new Set();

  constructor(private readonly options: ContractGateOptions) {
    options.releases.onChange(() => this.invalidate());
  }

  /** Published contracts or releases changed: every decision is made again (verdicts keep their own keys). */
  invalidate(): void {
    this.#generation++;
  }

  async decide(request: EnvironmentRequest, head: ResolvedRevision): Promise<ServedRevision> {
    if (isCommitLabel(request.label, head.commit)) return head;
    const key = `${head.commit}\u0000${request.name}`;
    let decision = this.#decisions.get(key);
    if (decision === undefined || (await decision).generation !== this.#generation) {
      decision = this.#decide(request.applications, head);
      this.#decisions.set(key, decision);
      decision.catch(() => this.#decisions.delete(key));
    }
    const decided = await decision;
    this.#settled.set(request.name, decided);
    return servedOf(head, decided.served);
  }

  decideNow(request: EnvironmentRequest, head: ResolvedRevision): ServedRevision | undefined {
    if (isCommitLabel(request.label, head.commit)) return head;
    const decided = this.#settled.peek(request.name);
    if (decided === undefined || decided.head !== head.commit || decided.generation !== this.#generation)
      return undefined;
    return servedOf(head, decided.served);
  }

  /**
   * Judges every application a contract guards at `head` (a push, a poll that moved the label): the holds found
   * replace those known. Nothing is announced here; /monitor announces what passed.
   */
  async judge(head: ResolvedRevision): Promise<GateVerdict> {
    const { verdicts } = this.options;
    const judgement = ++this.#judgements;
    const before = verdicts.judged;
    const applications = await verdicts.applicationsAt(head.commit);
    // A few at a time: each builds its environments through the shared build gate, whose queue is bounded.
    const judged: ApplicationVerdict[] = [];
    await eachWithin(applications, JUDGED_AT_ONCE, async (application, index) => {
      judged[index] = await verdicts.verdict(head.commit, head.label, application);
    });
    const passed: string[] = [];
    const held: Hold[] = [];
    for (const verdict of judged) {
      if (verdict.passed || this.options.releases.released(verdict.application, head.commit))
        passed.push(verdict.application);
      else held.push(await this.#holdOf(verdict, head));
    }
    this.#holds.clear();
    for (const hold of held) this.#holds.set(hold.application, hold);
    if (judgement === this.#judgements) this.#shed(head.commit, held);
    if (held.length > 0)
      this.options.logger.warn(
        { commit: head.commit, held: held.map((h) => h.application) },
        'Contract gate: applications held back at their last valid commit',
      );
    return {
      commit: head.commit,
      passed,
      held,
      applications: await verdicts.knownApplications(head.commit),
      environments: verdicts.judged - before,
    };
  }

  /**
   * What superseded heads left is let go once a newer head's verdict is in, keeping what can still be served:
   * the head, and the commit each held application is served (its environments, and its verdicts for the walk
   * back). A pushed commit otherwise left its 1,500 built environments and its scope behind until the caches'
   * bounds pushed them out, several commits' worth (docs/contracts.md, "Speed").
   */
  #shed(head: string, held: readonly Hold[]): void {
    const served = new Set([head]);
    for (const hold of held) if (hold.servedCommit !== undefined) served.add(hold.servedCommit);
    for (const commit of this.#served) if (!served.has(commit)) this.options.forgetCommit?.(commit);
    this.#served = served;
    this.options.verdicts.retainOnly(head, new Set(held.map((hold) => hold.application)));
  }

  /** The holds the newest judgement found. */
  holds(): Hold[] {
    return [...this.#holds.values()].sort((a, b) => a.application.localeCompare(b.application));
  }

  async #holdOf(verdict: ApplicationVerdict, head: ResolvedRevision): Promise<Hold> {
    const served = await this.#decide([verdict.application], head);
    return {
      application: verdict.application,
      heldHead: head.commit,
      servedCommit: served.served === head.commit ? undefined : served.served,
      violations: verdict.violations,
      errors: verdict.errors,
    };
  }

  /** The newest commit from the head back along first parents at which every application passes. */
  async #decide(applications: readonly string[], head: ResolvedRevision): Promise<Decision> {
    const generation = this.#generation;
    const { verdicts, releases, firstParent, maxHistory } = this.options;
    const passes = async (commit: string): Promise<boolean> => {
      const all = await Promise.all(
        applications.map(async (application) => {
          if (releases.released(application, commit)) return true;
          // Settled already (a held application's walk back): no need to read the commit again.
          const known = verdicts.settled(commit, application);
          if (known !== undefined) return known.passed;
          if (!(await verdicts.guards(commit, application))) return true;
          return (await verdicts.verdict(commit, head.label, application)).passed;
        }),
      );
      return all.every(Boolean);
    };
    let commit: string | undefined = head.commit;
    for (let walked = 0; commit !== undefined && walked <= maxHistory; walked++) {
      if (await passes(commit)) return { head: head.commit, generation, served: commit };
      commit = await firstParent(commit);
    }
    // Nothing valid within reach: the head is served (its violations are still reported), not an arbitrary past.
    return { head: head.commit, generation, served: head.commit };
  }
}

function servedOf(head: ResolvedRevision, served: string): ServedRevision {
  return served === head.commit ? head : { ...head, commit: served, heldHead: head.commit };
}

/** A request for a commit id itself is served that commit: an explicit pin is not the gate's to move. */
function isCommitLabel(label: string | null, commit: string): boolean {
  return label !== null && label === commit;
}
