/**
 * What `POST /monitor` does once the request is read (the route, monitor-controller.ts, only speaks HTTP):
 * checks the webhook's signature against the configured secrets, fetches from Git so clients that re-fetch
 * get the new commit, leaves out services fed by a changed file that does not parse, and publishes one
 * refresh event per guessed service — once per commit, however many webhooks a push sends.
 */
import { ConfbusError, type Logger, type RefreshBusEvent, isConfigFileName } from '@confbus/core';
import { guessServiceNames, messageOf } from '@confbus/core/internal';
import type { RefreshPublisher } from '../bus/server-bus.js';
import { type Clock, systemClock } from '../clock.js';
import type { RepositoryRefresh, ResolvedRevision } from '../environment/config-repository.js';
import { type ConfigImpact, configImpact } from '../impact/config-impact.js';
import type { ServedImpactSource } from '../impact/served-impact-source.js';
import type { ParsedFiles } from '../environment/parsed-files.js';
import { serverErrors } from '../errors.js';
import type { GateVerdict, Hold } from '../gate/contract-gate.js';
import type { WebhookHost, WebhookPush } from './push-webhook.js';
import { type WebhookSecrets, verifyWebhookSignature } from './webhook-signature.js';
import type { WebhookHeaders } from './webhook-headers.js';

/** Where published events are recorded for `/actuator/refresh-events` (the RefreshTracker). */
export interface PublishedRefreshes {
  published(event: RefreshBusEvent, commit: string): void;
}

export interface MonitorServiceOptions {
  /** The default repository's refresh (ConfigRepository.refresh): /monitor re-reads it. */
  readonly repository: Pick<RepositoryRefresh, 'refreshNow' | 'resolveFetched'>;
  /**
   * Reads and parses a changed file at the pushed commit, throwing when it does not parse: the repository's
   * ParsedFiles, whose cache the environments rebuilt after the push then find the file in.
   */
  readonly files: Pick<ParsedFiles, 'readOne'>;
  /**
   * The contract gate, when on: the pushed commit is judged before anything is announced, and the applications
   * it holds back get no refresh event.
   */
  readonly gate?: { judge(head: ResolvedRevision): Promise<GateVerdict> };
  /** Undefined when the server has no bus (spring.cloud.bus.enabled=false): a push is then re-read only. */
  readonly publisher: RefreshPublisher | undefined;
  /** The watch stream is on: without a bus, the fetch alone reaches watchers (watch/index.ts re-checks on it). */
  readonly watchEnabled?: boolean;
  readonly published: PublishedRefreshes;
  readonly secrets: WebhookSecrets;
  /** Reject webhooks that carry no signature we can verify. */
  readonly requireSignature: boolean;
  /** With a secret configured for some host, still accept requests that cannot be verified (form, simple...). */
  readonly allowUnsigned: boolean;
  /** Most changed files considered one by one; beyond, the push refreshes every service (`*`). */
  readonly maxFiles: number;
  readonly logger: Logger;
  /** For signature timestamps (default: the system clock). */
  readonly clock?: Clock;
  /** Where a push's blast radius is computed (`POST /monitor?impact=true`); absent: it cannot be asked for. */
  readonly impact?: PushImpactSource;
}

/** The default repository as the blast radius reads it (impact/served-impact-source.ts), and its bound. */
export interface PushImpactSource extends ServedImpactSource {
  /** Environments compared at most per push (beyond, counted as `skipped`). */
  readonly maxEnvironments: number;
}

/** A push's blast radius, in /monitor's answer when asked for: from which commit to which, what changed. */
export interface PushImpact extends ConfigImpact {
  readonly base: string | null;
  readonly commit: string;
}

export interface UnparsableFile {
  readonly file: string;
  readonly message: string;
}

/** What a push led to; the route turns it into a status and a body. */
export type PushOutcome =
  /** Events published for `services` (none when the push named no file). */
  (
    | { readonly kind: 'published'; readonly services: string[] }
    /** Git was re-read, but without a bus nothing could be published. */
    | { readonly kind: 'bus-disabled'; readonly commit: string; readonly services: string[] }
    /** Published for the others; the services fed by `rejected` files were left out. */
    | { readonly kind: 'some-unparsable'; readonly services: string[]; readonly rejected: UnparsableFile[] }
  ) & {
    /** The applications the contract gate held back at this commit (nothing published for them). */
    readonly held?: readonly Hold[];
    readonly commit?: string;
    /** The push's blast radius, when asked for (`?impact=true`). */
    readonly impact?: PushImpact;
  };

export class MonitorService {
  /**
   * Publications per service for the newest commit, so a burst of webhooks for one push publishes once. A
   * webhook arriving while a publication is in flight awaits it (and shares its failure); a failed one is
   * forgotten, so the host's redelivery of the webhook publishes it.
   */
  readonly #announced = new Map<string, Map<string, Promise<void>>>();

  constructor(private readonly options: MonitorServiceOptions) {}

  /** Throws CONFBUS_BAD_WEBHOOK_SIGNATURE (401) when the request's signature is wrong, or missing where one is required. */
  verifySignature(host: WebhookHost, headers: WebhookHeaders, rawBody: Buffer): void {
    const { secrets, logger } = this.options;
    const now = (this.options.clock ?? systemClock).now();
    const signature = verifyWebhookSignature({ host, headers, rawBody, secrets, now });
    if (!signature.ok) {
      logger.warn({ host }, `Rejected webhook: ${signature.reason}`);
      throw new ConfbusError(serverErrors.CONFBUS_BAD_WEBHOOK_SIGNATURE, signature.reason);
    }
    if (hasSecretFor(host, secrets)) return;
    if (this.options.requireSignature) {
      throw new ConfbusError(
        serverErrors.CONFBUS_BAD_WEBHOOK_SIGNATURE,
        `Webhooks must be signed (confbus.monitor.require-signature) and no secret is configured for '${host}'`,
      );
    }
    if (Object.values(secrets).some((secret) => secret !== undefined) && !this.options.allowUnsigned) {
      logger.warn({ host }, 'Rejected unsigned webhook');
      throw new ConfbusError(
        serverErrors.CONFBUS_BAD_WEBHOOK_SIGNATURE,
        `A webhook secret is configured, so unsigned '${host}' requests are refused ` +
          '(set confbus.monitor.allow-unsigned=true to accept them)',
      );
    }
  }

  /**
   * Re-reads Git and publishes the refreshes a verified push calls for. Throws a 503 ConfbusError when Git
   * could not be fetched (publishing would make clients re-read the old state) or an event was not published.
   */
  async handlePush(push: WebhookPush, wanted: { impact?: boolean } = {}): Promise<PushOutcome> {
    const source = this.options.impact;
    if (!wanted.impact || source === undefined) return this.#handle(push);
    // The head before the push is what its blast radius is measured from (none yet: everything is new).
    const base = await this.options.repository.resolveFetched(null).then(
      (head) => head.commit,
      () => undefined,
    );
    const outcome = await this.#handle(push);
    const commit = (await this.options.repository.resolveFetched(null)).commit;
    const files = base === undefined ? push.paths : await source.changedPaths(base, commit);
    const impact = await configImpact(source, {
      revision: commit,
      base,
      files,
      maxEnvironments: source.maxEnvironments,
    });
    return { ...outcome, impact: { ...impact, base: base ?? null, commit } };
  }

  async #handle(push: WebhookPush): Promise<PushOutcome> {
    const { repository, maxFiles } = this.options;
    if (push.paths.length === 0) return { kind: 'published', services: [] };
    const fetchStarted = performance.now();
    const outcome = await repository.refreshNow();
    const fetchMs = Math.round(performance.now() - fetchStarted);
    if (outcome.stale) {
      throw new ConfbusError(
        serverErrors.CONFBUS_UPSTREAM_UNAVAILABLE,
        'Could not fetch from the Git repository, so no refresh was published (clients would re-read the old state)',
      );
    }
    const commit = await this.#announcedCommit(push.commit);
    // Beyond maxFiles (or as many guessed services) one broadcast replaces per-file events and checks.
    const broadcast = push.paths.length > maxFiles;
    const rejected = broadcast ? [] : await this.#unparsableFiles(commit, push.paths);
    const accepted = push.paths.filter((path) => !rejected.some((r) => r.file === path));
    const guessed = guessServiceNames(accepted);
    const named = broadcast || guessed.length > maxFiles ? ['*'] : guessed;
    // Judged before anything is announced: the applications held back are left out of the refresh.
    const verdict = await this.options.gate?.judge(await this.#headAt(commit));
    const services = verdict === undefined ? named : withoutHeld(named, verdict);
    const gated = verdict === undefined || verdict.held.length === 0 ? {} : { held: verdict.held, commit };

    const { publisher } = this.options;
    if (publisher === undefined && this.options.watchEnabled) {
      this.options.logger.info(
        { services, commit, fetchMs },
        'Webhook received: watchers are told by the watch stream',
      );
      return { kind: 'published', services, ...gated };
    }
    if (publisher === undefined) {
      this.options.logger.warn(
        { services },
        'Webhook received but the bus is disabled: no refresh event was published',
      );
      return { kind: 'bus-disabled', services, ...gated, commit };
    }
    await this.#publish(publisher, commit, services);
    return rejected.length > 0
      ? { kind: 'some-unparsable', services, rejected, ...gated }
      : { kind: 'published', services, ...gated };
  }

  /** The announced commit as a revision of the default label (what the gate judges a push at). */
  async #headAt(commit: string): Promise<ResolvedRevision> {
    const head = await this.options.repository.resolveFetched(null);
    return { label: head.label, commit, stale: false };
  }

  /** One event per service, sent at once; a publication already made or in flight for the commit is shared. */
  async #publish(publisher: RefreshPublisher, commit: string, services: readonly string[]): Promise<void> {
    const { published, logger } = this.options;
    const publications = this.#announced.get(commit) ?? new Map<string, Promise<void>>();
    this.#announced.clear();
    this.#announced.set(commit, publications);
    // All sent at once, in the order the services were named: one channel keeps that order on the wire, and
    // the last service's event no longer waits for the broker to confirm every earlier one (a round trip
    // each, which under load was most of the time between the first and the last event).
    const pending = services.map((service) => {
      logger.info({ service, commit }, `Refresh for: ${service}`);
      let publication = publications.get(service);
      if (publication === undefined) {
        const started = publisher
          .publishRefresh(service, commit)
          .then((event) => published.published(event, commit));
        publication = started;
        publications.set(service, started);
        // Registered before anyone awaits it, so the entry is gone before a waiter can answer.
        started.catch(() => {
          if (publications.get(service) === started) publications.delete(service);
        });
      }
      return { service, publication };
    });
    const failed: Array<{ service: string; error: unknown }> = [];
    for (const { service, publication } of pending) {
      try {
        await publication;
      } catch (error) {
        failed.push({ service, error });
      }
    }
    if (failed.length === 0) return;
    const reason = messageOf(failed[0]!.error);
    logger.warn(
      { services: failed.map((f) => f.service), commit, reason },
      'Could not publish refresh events',
    );
    throw new ConfbusError(
      serverErrors.CONFBUS_BUS_PUBLISH_FAILED,
      `Git was re-read (commit ${commit}), but the refresh for ${failed.map((f) => f.service).join(', ')} ` +
        `could not be published (${reason}); redeliver the webhook to retry`,
    );
  }

  /**
   * The commit the refresh events announce: the one the webhook says was pushed, once the fetch has brought it
   * into the mirror; otherwise (no commit in the payload, or not fetched: a forged or reordered webhook) the
   * default label's head as just fetched.
   */
  async #announcedCommit(pushed: string | undefined): Promise<string> {
    const { repository } = this.options;
    if (pushed !== undefined) {
      const known = await repository.resolveFetched(pushed).catch(() => undefined);
      if (known?.commit === pushed) return pushed;
    }
    return (await repository.resolveFetched(null)).commit;
  }

  async #unparsableFiles(commit: string, paths: readonly string[]): Promise<UnparsableFile[]> {
    const rejected: UnparsableFile[] = [];
    for (const path of new Set(paths)) {
      if (!isConfigFileName(path)) continue;
      try {
        // A file the push deleted reads as empty: nothing to reject.
        await this.options.files.readOne(commit, path.replace(/^\/+/, ''));
      } catch (error) {
        rejected.push({ file: path, message: messageOf(error) });
      }
    }
    return rejected;
  }
}

/**
 * The services to refresh once the gate has held some back: those named, less the held applications (and their
 * `{application}-{profile}` names). `*` (a change to application.yml) cannot leave anyone out, so it becomes
 * every application the commit knows (a contract or a file of its own) that is not held.
 */
function withoutHeld(services: readonly string[], verdict: GateVerdict): string[] {
  if (verdict.held.length === 0) return [...services];
  const held = new Set(verdict.held.map((hold) => hold.application));
  const passed = new Set(verdict.passed);
  // `shop-prod` (from shop-prod.yml) is shop's, unless shop-prod is an application that passed.
  const isHeld = (service: string) =>
    held.has(service) ||
    (!passed.has(service) && [...held].some((application) => service.startsWith(`${application}-`)));
  const named = services.includes('*')
    ? [...new Set([...services.filter((s) => s !== '*'), ...verdict.applications])]
    : services;
  return named.filter((service) => !isHeld(service));
}

function hasSecretFor(host: WebhookHost, secrets: WebhookSecrets): boolean {
  const key = host === 'bitbucket-cloud' || host === 'bitbucket-server' ? 'bitbucket' : host;
  return (secrets as Record<string, string | undefined>)[key] !== undefined;
}
