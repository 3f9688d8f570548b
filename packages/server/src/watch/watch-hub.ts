/**
 * The watched configurations and their watchers. One topic per (application, profiles, label) watched, holding
 * the version and merged values last seen, shared by every watcher of it (a watcher costs its connection, not a
 * copy of the configuration). `recheck()` — called when the repository was fetched and moved, on the periodic
 * upstream check, and when another server announced a refresh on the bus — re-reads each topic through the same
 * finder the environment endpoint uses; a topic whose values changed becomes one refresh event (recorded with
 * the refresh events, so acks from watchers show there) delivered to each of its watchers, serialised once —
 * with the new environment body for the watchers that asked for it (watch-deliveries.ts).
 */
import { type Logger, type RefreshBusEvent, createRefreshEvent } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { setImmediate } from 'node:timers';
import type { EnvironmentFinder, FoundEnvironment } from '../environment/environment-finder.js';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import { TimeSlice } from '../support/time-slice.js';
import { type MergedValues, changedKeys, mergedValues } from './watch-changes.js';
import { type Delivery, deliveryOf, inlineBody, withoutEnvironment } from './watch-deliveries.js';

export type { Delivery, WatchChange } from './watch-deliveries.js';

/** Watchers written per time-slice step: a step costs a clock read and a microtask. */
const WATCHERS_PER_STEP = 64;

export interface Watcher {
  deliver(delivery: Delivery): void;
}

interface Topic {
  readonly request: EnvironmentRequest;
  version: string;
  values: MergedValues;
  /** The environment body of `version` to send with a change (watch-deliveries.ts), undefined: re-fetch. */
  body: Buffer | undefined;
  last: Delivery | undefined;
  /** For watchers further behind than the last change: one per version, however many reconnect with it. */
  catchUp: Delivery | undefined;
  readonly watchers: Set<Watcher>;
}

export interface WatchHubOptions {
  readonly finder: EnvironmentFinder;
  /** Records a change as a refresh event (the RefreshTracker, and the console). */
  readonly published: (event: RefreshBusEvent, version: string) => void;
  /** The refresh events' origin: this server's name. */
  readonly origin: string;
  readonly logger: Logger;
  /** confbus.watch.max-sent-environment-bytes: the largest environment body sent with a change (0: none). */
  readonly maxEnvironmentBytes: number;
  /**
   * False when a watcher's own GET could be answered another commit than the topic's (a staged rollout
   * holds the application): its watchers are then told the keys and re-fetch. Default: always true.
   */
  readonly servesAllAlike?: (request: EnvironmentRequest) => boolean;
}

export class WatchHub {
  readonly #topics = new Map<string, Topic>();
  /** Topics being read for their first watcher: later watchers wait for the same read. */
  readonly #opening = new Map<string, Promise<Topic>>();
  #checking: Promise<void> | undefined;
  #checkAgain = false;
  /** Rechecks asked for so far: a topic whose first read began before the last one may be stale. */
  #rechecks = 0;
  #watchers = 0;

  constructor(private readonly options: WatchHubOptions) {}

  get watchers(): number {
    return this.#watchers;
  }

  get topics(): number {
    return this.#topics.size;
  }

  /**
   * Adds `watcher` to the topic of `request` and answers what it missed: the last change when the watcher is
   * one version behind it, a change without keys when further behind, nothing when `since` is current (or
   * not given). Throws what the environment endpoint would (unknown repository, bad label...).
   */
  async subscribe(request: EnvironmentRequest, since: string | undefined, watcher: Watcher) {
    const topic = await this.#topic(request);
    topic.watchers.add(watcher);
    this.#watchers++;
    const missed = since === undefined || since === topic.version ? undefined : this.#missed(topic, since);
    return { version: topic.version, missed, unsubscribe: () => this.#unsubscribe(topic, watcher) };
  }

  /** Re-reads every topic and tells the watchers of each one that changed; calls while one runs share a rerun. */
  recheck(): Promise<void> {
    this.#rechecks++;
    if (this.#checking) {
      this.#checkAgain = true;
      return this.#checking;
    }
    const run = (async () => {
      do {
        this.#checkAgain = false;
        for (const topic of [...this.#topics.values()]) await this.#checkTopic(topic);
      } while (this.#checkAgain);
    })().finally(() => (this.#checking = undefined));
    this.#checking = run;
    return run;
  }

  /**
   * Tells the watchers of these applications to fetch again, as a refresh event on the bus does: a staged
   * rollout moved (its start, a wave, its end), which changes what some instances are served while the label's
   * head the topics follow stays. `version` is the hint; a watcher already serving it does not fetch.
   */
  async announce(applications: readonly string[], version: string): Promise<void> {
    for (const topic of [...this.#topics.values()]) {
      if (!topic.request.applications.some((name) => applications.includes(name))) continue;
      const event = this.#record(topic, version);
      await fanOut(topic.watchers, deliveryOf({ event: event.id, version, from: null, keys: null }));
    }
  }

  #missed(topic: Topic, since: string): Delivery {
    const missed = topic.last && topic.last.change.from === since ? topic.last : this.#catchUp(topic);
    // The environment goes only where a GET would answer it: not after a commit that changed no value moved
    // the version past the last change's, nor once a rollout started (the change may be older than it).
    const current = missed.change.version === topic.version;
    return current && this.#alike(topic) ? missed : withoutEnvironment(missed);
  }

  #catchUp(topic: Topic): Delivery {
    if (topic.catchUp?.change.version !== topic.version) {
      const event = topic.last?.change.event ?? this.#record(topic).id;
      const change = { event, version: topic.version, from: null, keys: null };
      topic.catchUp = deliveryOf(change, topic.body);
    }
    return topic.catchUp;
  }

  #alike(topic: Topic): boolean {
    return this.options.servesAllAlike?.(topic.request) ?? true;
  }

  /** The body to send with a change to `found`, read from the environment's cached serialisation. */
  #bodyOf(found: FoundEnvironment): Buffer | undefined {
    if (this.options.maxEnvironmentBytes === 0) return undefined;
    // The body a GET with Accept: application/json is answered (confbus clients ask so): plain, no origins.
    return inlineBody(found.resolved.bodyNow('application/json'), this.options.maxEnvironmentBytes);
  }

  async #topic(request: EnvironmentRequest): Promise<Topic> {
    const key = `${request.name}\u0000${request.profilesText}\u0000${request.label ?? ''}`;
    const known = this.#topics.get(key);
    if (known) return known;
    let opening = this.#opening.get(key);
    if (!opening) {
      const rechecks = this.#rechecks;
      opening = this.options.finder
        .find(request)
        .then((found): Topic => {
          const topic: Topic = {
            request,
            version: versionOf(found),
            values: mergedValues(found.resolved.environment),
            body: this.#bodyOf(found),
            last: undefined,
            catchUp: undefined,
            watchers: new Set(),
          };
          this.#topics.set(key, topic);
          // The upstream moved while it was read (a recheck passed it by: it was not a topic yet), so the
          // read may be from before: check again once its first watchers are subscribed (setImmediate).
          if (this.#rechecks !== rechecks) setImmediate(() => void this.recheck());
          return topic;
        })
        .finally(() => this.#opening.delete(key));
      this.#opening.set(key, opening);
    }
    return opening;
  }

  #unsubscribe(topic: Topic, watcher: Watcher): void {
    if (!topic.watchers.delete(watcher)) return;
    this.#watchers--;
    if (topic.watchers.size > 0) return;
    // Nobody watches it any more: forget it, so topics are bounded by the watchers.
    const { request } = topic;
    this.#topics.delete(`${request.name}\u0000${request.profilesText}\u0000${request.label ?? ''}`);
  }

  async #checkTopic(topic: Topic): Promise<void> {
    let found: FoundEnvironment;
    const started = performance.now();
    try {
      found = await this.options.finder.find(topic.request);
    } catch (error) {
      // The watchers keep the version they have; the next check tries again.
      this.options.logger.warn(
        { application: topic.request.name, reason: messageOf(error) },
        'Watch check could not read the configuration',
      );
      return;
    }
    const version = versionOf(found);
    if (version === topic.version) return;
    const read = performance.now();
    const values = mergedValues(found.resolved.environment);
    const keys = changedKeys(topic.values, values);
    const from = topic.version;
    topic.version = version;
    topic.values = values;
    topic.body = this.#bodyOf(found);
    // A commit that leaves this configuration as it was is not a change for its watchers.
    if (keys.length === 0) return;
    const event = this.#record(topic);
    const body = this.#alike(topic) ? topic.body : undefined;
    const delivery = deliveryOf({ event: event.id, version, from, keys }, body);
    topic.last = delivery;
    const diffed = performance.now();
    await fanOut(topic.watchers, delivery);
    const written = performance.now();
    // The phases of a change, so the time from a webhook to every watcher can be split (bench/watch-bench.mjs).
    const ms = (from: number, to: number) => Math.round((to - from) * 10) / 10;
    this.options.logger.info(
      {
        application: topic.request.name,
        version,
        keys: keys.length,
        environmentBytes: body?.length ?? 0,
        watchers: topic.watchers.size,
        findMs: ms(started, read),
        diffMs: ms(read, diffed),
        writeMs: ms(diffed, written),
      },
      `Watch change for ${topic.request.name}: ${keys.length} key(s) to ${topic.watchers.size} watcher(s)`,
    );
  }

  /** The change as a refresh event with the refresh events, where acks from watchers are recorded against it. */
  #record(topic: Topic, version = topic.version): RefreshBusEvent {
    const { request } = topic;
    const destination = `${request.applications[0] ?? request.name}:${request.profilesText || 'default'}`;
    const event = { ...createRefreshEvent(this.options.origin, destination), configVersion: version };
    this.options.published(event, version);
    return event;
  }
}

/**
 * Writes `delivery` to every watcher (a copy of the set: watchers may leave meanwhile), with the server's
 * time-slice budget: 10,000 writes take longer than a slice, and requests and heartbeats get their turn in
 * between instead of waiting for the last socket.
 */
async function fanOut(watchers: ReadonlySet<Watcher>, delivery: Delivery): Promise<void> {
  const slice = new TimeSlice();
  const all = [...watchers];
  for (let from = 0; from < all.length; from += WATCHERS_PER_STEP) {
    const step = all.slice(from, from + WATCHERS_PER_STEP);
    await slice.run(() => {
      for (const watcher of step) watcher.deliver(delivery);
    });
  }
}

function versionOf(found: FoundEnvironment): string {
  return found.resolved.environment.version ?? found.revision.commit;
}
