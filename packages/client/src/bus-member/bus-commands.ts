/**
 * What this node carries out for a bus command addressed to it, whether another node sent it or this node's own
 * endpoint did, as Spring's listeners do (RefreshListener, EnvironmentChangeListener, ShutdownListener): each
 * behind Spring's `spring.cloud.bus.<command>.enabled` switch. A command switched off is still acked (Spring's
 * BusConsumer acks whatever listens), and an INFO line says so.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { AckDetails, BusCommandHandler, BusRefreshHandler } from '@confbus/bus';
import type { Logger, RefreshBusEvent } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { BusCommandSwitches, ClientBusSettings } from './bus-member-settings.js';
import type { BusRefreshTarget } from './client-bus-types.js';

/** This node's part of a refresh: the keys it changed, or why there are none (not attempted, or failed). */
export interface LocalRefresh {
  readonly keys: string[] | null;
  readonly skipped?: string;
  readonly error?: unknown;
}

export class BusCommands {
  /** Refreshes for bus events in progress: their acks will carry the version this node then serves. */
  #remoteRefreshes = 0;

  constructor(
    private readonly settings: ClientBusSettings,
    private readonly target: BusRefreshTarget,
    private readonly logger: Logger,
    /** Once the member closes, a refresh still waiting for its spread is not made. */
    private readonly closed: () => boolean,
  ) {}

  /** Whether a refresh for a bus event is under way (its ack will tell the fleet view the version). */
  get answeringEvent(): boolean {
    return this.#remoteRefreshes > 0;
  }

  /** The BusNode's handlers for the events other nodes address to this one. */
  handlers(): { refreshHandler: BusRefreshHandler; commandHandler: BusCommandHandler } {
    return {
      refreshHandler: { refresh: (event) => this.#onRemoteRefresh(event) },
      commandHandler: {
        environmentChange: (values) => this.applyEnvironment(values),
        shutdown: async () => {
          if (this.carriesOut('shutdown')) await this.target.shutdown();
        },
      },
    };
  }

  /** `busenv`: sets the values here (then refreshes), unless switched off. */
  async applyEnvironment(values: Readonly<Record<string, string>>): Promise<void> {
    if (this.carriesOut('env')) await this.target.applyEnvironment(values);
  }

  /** A busrefresh asked of this node: refreshed here when addressed (Spring's RefreshListener says when not). */
  async refreshHere(event: RefreshBusEvent, addressed: boolean): Promise<LocalRefresh> {
    if (!addressed) {
      this.logger.info({}, `Refresh not performed, the event was targeting ${event.destinationService}`);
      return { keys: null, skipped: 'the destination does not address this node' };
    }
    if (this.carriesOut('refresh')) return this.#refresh(event);
    return { keys: null, skipped: 'spring.cloud.bus.refresh.enabled=false' };
  }

  /** Whether this node carries out `command` (Spring's switch); says so at INFO when it does not. */
  carriesOut(command: keyof BusCommandSwitches): boolean {
    if (this.settings.commands[command]) return true;
    this.logger.info({}, `Bus ${command} not performed: spring.cloud.bus.${command}.enabled=false`);
    return false;
  }

  /**
   * A refresh the BusNode found addressed to this node; what it returns goes into the ack: the version served
   * and whether the refresh was applied or `rejected` (the reason: the refresh's failure, e.g. the application's
   * own schema refusing the new values). A refresh this node does not carry out says neither.
   */
  async #onRemoteRefresh(event: RefreshBusEvent): Promise<AckDetails> {
    this.#remoteRefreshes++;
    let outcome: Pick<AckDetails, 'outcome' | 'reason'> = {};
    try {
      if (this.carriesOut('refresh')) {
        await spreadDelay(this.settings.refreshSpreadMs, this.logger);
        if (!this.closed()) {
          const done = await this.#refresh(event);
          outcome =
            done.error === undefined
              ? { outcome: 'applied' }
              : { outcome: 'rejected', reason: messageOf(done.error) };
        }
      }
    } finally {
      this.#remoteRefreshes--;
    }
    // configVersion, outcome and reason are confbus's additions (Spring ignores unknown fields): the server's
    // ack tracking sees which version each node serves after the refresh, and whether it took the new one.
    const version = this.target.currentVersion();
    return { ...(version === null ? {} : { configVersion: version }), ...outcome };
  }

  /**
   * Spring's RefreshListener for an event addressed to this node. Its "Keys refreshed [...]" is the refresh's
   * one INFO line, written by the refresh itself; "Received remote refresh request." is DEBUG here.
   */
  async #refresh(event: RefreshBusEvent): Promise<LocalRefresh> {
    this.logger.debug({}, 'Received remote refresh request.');
    try {
      return { keys: await this.target.refresh({ atLeast: event.configVersion }) };
    } catch (error) {
      // The refresh already warned with the cause; the event counts as handled (and is acked) anyway.
      this.logger.debug(
        {},
        `Remote refresh ${event.id} from ${event.originService} failed: ${messageOf(error)}`,
      );
      return { keys: null, error };
    }
  }
}

/** confbus.bus.refresh.spread: a random share of the window, so a large fleet does not re-fetch at one instant. */
async function spreadDelay(windowMs: number, logger: Logger): Promise<void> {
  if (windowMs <= 0) return;
  const waitMs = Math.floor(Math.random() * windowMs);
  logger.debug({ waitMs }, `Re-fetching in ${waitMs} ms (confbus.bus.refresh.spread=${windowMs})`);
  await delay(waitMs, undefined, { ref: false });
}
