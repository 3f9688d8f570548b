/**
 * The instances this replica has heard from during rollouts: who they are (id, tags, profiles), which commits
 * they were served, and their latest health report with the error counts since they began serving its commit.
 * Kept in memory per replica: it is rebuilt within one report interval after a restart, as every instance
 * reports again (docs/rollouts.md, "State").
 */
import type { HealthRecord } from './fleet-judge.js';
import type { InstanceFacts } from './wave-membership.js';

/** A health report as an instance sends it (POST /-/rollouts/reports). */
export interface InstanceReport {
  readonly instance: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly application: string;
  readonly profiles: readonly string[];
  readonly version: string | null;
  readonly status: string;
  /** Errors counted since the process started (the application feeds the counter). */
  readonly errors: number;
  readonly rejected: boolean;
}

export interface InstanceEntry extends InstanceFacts {
  readonly applications: Set<string>;
  /** Every commit a rollout chose for it, and when last. */
  readonly served: Map<string, number>;
  lastSeenAt: number;
  report?: InstanceReport & { readonly at: number };
  /** The error count and time at which it began reporting its current version (the rate's start). */
  errorBase?: { readonly version: string | null; readonly errors: number; readonly at: number };
}

/** Bound on instances remembered: the least recently seen are forgotten first. */
const MAX_INSTANCES = 100_000;

export class InstanceRegistry {
  private readonly entries = new Map<string, InstanceEntry>();

  /** A fetch the rollouts answered: `commit` is what it was served. */
  served(facts: InstanceFacts, applications: readonly string[], commit: string, now: number): void {
    const entry = this.entryOf(facts, applications, now);
    entry.served.set(commit, now);
  }

  reported(report: InstanceReport, now: number): void {
    const entry = this.entryOf(
      { id: report.instance, tags: report.tags, profiles: report.profiles },
      [report.application],
      now,
    );
    const base = entry.errorBase;
    // A new version, or a counter that went back (the process restarted), starts a new window.
    if (base === undefined || base.version !== report.version || report.errors < base.errors)
      entry.errorBase = { version: report.version, errors: report.errors, at: now };
    entry.report = { ...report, at: now };
  }

  get(id: string): InstanceEntry | undefined {
    return this.entries.get(id);
  }

  /** Instances of any of the applications seen or reporting since `since`. */
  of(applications: readonly string[], since: number): InstanceEntry[] {
    const out: InstanceEntry[] = [];
    for (const entry of this.entries.values())
      if (entry.lastSeenAt >= since && applications.some((name) => entry.applications.has(name)))
        out.push(entry);
    return out;
  }

  /** The judge's view of an instance that reported; undefined for one that never did. */
  healthOf(entry: InstanceEntry): HealthRecord | undefined {
    const { report, errorBase } = entry;
    if (report === undefined || errorBase === undefined) return undefined;
    return {
      id: entry.id,
      version: report.version,
      status: report.status,
      rejected: report.rejected,
      lastReportAt: report.at,
      errors: report.errors - errorBase.errors,
      errorWindowMs: report.at - errorBase.at,
    };
  }

  private entryOf(facts: InstanceFacts, applications: readonly string[], now: number): InstanceEntry {
    let entry = this.entries.get(facts.id);
    if (entry === undefined) {
      if (this.entries.size >= MAX_INSTANCES) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      entry = { ...facts, applications: new Set(), served: new Map(), lastSeenAt: now };
      this.entries.set(facts.id, entry);
    } else {
      // Re-inserted so that the map's order is least recently seen first.
      this.entries.delete(facts.id);
      this.entries.set(facts.id, entry);
      entry = Object.assign(entry, { tags: facts.tags, profiles: facts.profiles });
    }
    for (const name of applications) entry.applications.add(name);
    entry.lastSeenAt = now;
    return entry;
  }
}
