/**
 * One member of a Spring Cloud Bus, whatever the broker: decodes what its transport receives, drops what is
 * malformed, ignores its own events and events not addressed to it, runs this node's refresh for those that are
 * and acks them once the refresh has finished (Spring's BusConsumer, with confbus's `configVersion`), and reports
 * the transport's connection as connected / disconnected / reconnected. The transport only moves bytes; what is
 * run and acked for an addressed event is addressed-events.ts.
 */
import { EventEmitter } from 'node:events';
import {
  type BusEvent,
  type Logger,
  type RefreshBusEvent,
  BusMessageError,
  ConfbusError,
  createRefreshEvent,
  decodeBusEvent,
  encodeBusEvent,
  isAckEvent,
  isEnvironmentChangeEvent,
  isForSelf,
  isFromSelf,
  isRefreshEvent,
  isShutdownEvent,
} from '@confbus/core';
import { busEventFromJson } from '@confbus/core/internal';
import { type HandlingContext, refreshThenAck, runCommand } from './addressed-events.js';
import { sendWithin } from './bounded-send.js';
import {
  type BusNodeEvents,
  type BusNodeOptions,
  type BusNodeStats,
  type MutableStats,
  emptyStats,
} from './bus-node-options.js';
import { busErrors } from './errors.js';
import { LogRateLimit } from './log-rate-limit.js';
import { REJECTION_REASONS, type Rejection } from './signing/message-signing.js';
import type { BusTransport, InboundBody, InboundMessage } from './transport.js';

const DEFAULT_PUBLISH_TIMEOUT_MS = 5000;
/** `dropped bus message` lines: at most this many per window (the rest are counted in the next line). */
export const DROPPED_MESSAGE_LOG_LIMIT = { lines: 5, windowMs: 10_000 };

export class BusNode extends EventEmitter<BusNodeEvents> {
  readonly #options: BusNodeOptions;
  readonly #transport: BusTransport;
  readonly #log: Logger;
  readonly #dropWarnings: LogRateLimit;
  /** What the handlers of addressed events use of this node (addressed-events.ts). */
  readonly #handling: HandlingContext;
  #started = false;
  #everConnected = false;
  #ready = false;
  /** Why the last connection attempt failed (described, redacted); cleared once connected. */
  #lastError: { code?: string; message: string } | undefined;
  #closed = false;
  readonly #stats: MutableStats = emptyStats();

  constructor(options: BusNodeOptions) {
    super();
    if (options.busId.trim() === '') {
      throw new ConfbusError(busErrors.CONFBUS_BUS_OPTIONS, 'BusNode needs a non-empty busId');
    }
    this.#options = options;
    this.#transport = options.transport;
    this.#log = options.logger;
    this.#dropWarnings = new LogRateLimit(options.droppedMessageLog ?? DROPPED_MESSAGE_LOG_LIMIT);
    this.#handling = {
      options,
      log: options.logger,
      publish: (e) => this.publish(e),
      isClosed: () => this.#closed,
      describeError: (err) => this.#transport.describeError(err),
    };
  }

  /** True while the transport is subscribed on a live connection. */
  get connected(): boolean {
    return this.#ready;
  }

  /** Why the node is not connected, when an attempt failed: for health details. */
  get lastError(): { code?: string; message: string } | undefined {
    return this.#ready ? undefined : this.#lastError;
  }

  /** lastError as the `bus` health component's details say it (server and client alike); {} while none. */
  get lastErrorDetails(): { lastError?: string; lastErrorCode?: string } {
    const { message, code } = this.lastError ?? {};
    return message === undefined ? {} : { lastError: message, ...(code ? { lastErrorCode: code } : {}) };
  }

  get stats(): BusNodeStats {
    return this.#stats;
  }

  get busId(): string {
    return this.#options.busId;
  }

  /** The transport's loggable facts (queue or topic and consumer group, broker addresses). */
  get transportDetails(): Readonly<Record<string, unknown>> {
    return this.#transport.details;
  }

  /** Whether `event` is addressed to this node (Spring's ServiceMatcher.isForSelf with this node's id). */
  isAddressed(event: BusEvent): boolean {
    return isForSelf(
      event,
      this.#options.busId,
      this.#options.configNames ? [...this.#options.configNames] : [],
    );
  }

  /**
   * Connects and subscribes. Resolves once subscribed, or as soon as the first attempt has failed (logged):
   * an unreachable broker is not fatal, the node keeps reconnecting in the background.
   */
  async start(): Promise<void> {
    if (this.#started) {
      throw new ConfbusError(busErrors.CONFBUS_BUS_OPTIONS, 'BusNode.start() was already called');
    }
    this.#started = true;
    await this.#transport.start({
      message: (message) => this.#onMessage(message),
      up: () => this.#onUp(),
      down: (error) => this.#onDown(error),
    });
  }

  /**
   * Sends a refresh from this node to `destination` (normalised; everyone when absent), announcing
   * `configVersion` (the commit confbus clients then ask their server for at least) when given.
   */
  async publishRefresh(destination?: string, configVersion?: string): Promise<RefreshBusEvent> {
    const created = createRefreshEvent(this.#options.busId, destination);
    const e: RefreshBusEvent = configVersion === undefined ? created : { ...created, configVersion };
    await this.publish(e);
    return e;
  }

  /** Publishes any event; resolves when the broker has taken it. */
  async publish(e: BusEvent): Promise<void> {
    if (!this.#started || this.#closed) {
      throw new ConfbusError(busErrors.CONFBUS_BUS_CLOSED, 'BusNode is not started or already closed');
    }
    try {
      const timeoutMs = this.#options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
      const body = encodeBusEvent(e);
      await sendWithin(this.#transport.send(e, body, this.#options.signing?.sign(body)), timeoutMs);
      this.#stats.published[e.type] = (this.#stats.published[e.type] ?? 0) + 1;
    } catch (err) {
      this.#stats.publishFailures++;
      const { code, message } = this.#transport.describeError(err);
      throw new ConfbusError(
        busErrors.CONFBUS_BUS_SEND_FAILED,
        `publishing ${e.type} ${e.id} to the bus failed${code ? ` (${code})` : ''}: ${message}`,
      );
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#ready = false;
    if (this.#started) await this.#transport.close();
  }

  #onUp(): void {
    if (this.#closed) return;
    this.#ready = true;
    const fields = { busId: this.#options.busId, ...this.#transport.details };
    if (!this.#everConnected) {
      this.#everConnected = true;
      this.#log.info(fields, 'bus connected');
      this.emit('connected');
    } else {
      this.#stats.reconnects++;
      this.#log.info(fields, 'bus reconnected');
      this.emit('reconnected');
    }
  }

  #onDown(error: unknown): void {
    if (this.#closed) return;
    const wasReady = this.#ready;
    this.#ready = false;
    this.#lastError = this.#transport.describeError(error);
    this.#log.warn(
      { err: this.#lastError, busId: this.#options.busId, ...this.#transport.details },
      wasReady ? 'bus connection lost, reconnecting' : 'bus broker unreachable, retrying in the background',
    );
    if (wasReady) this.emit('disconnected');
  }

  #onMessage(message: InboundMessage): void {
    if (this.#closed) return;
    const signing = this.#options.signing;
    const verdict = signing?.verify(message.body, message.signature);
    const unsigned = verdict === undefined ? undefined : signing?.rejects(verdict);
    if (unsigned !== undefined) return this.#reject(unsigned, message);
    let e: BusEvent;
    try {
      e = decodeInbound(message.body);
    } catch (err) {
      if (!(err instanceof BusMessageError)) throw err;
      this.#stats.dropped++;
      this.#warnDropped({ code: err.code, message: err.message }, message);
      return;
    }
    const replayed = verdict === 'valid' ? signing?.replayed(e) : undefined;
    if (replayed !== undefined) return this.#reject(replayed, message);
    try {
      this.#dispatch(e);
    } catch (err) {
      // A failing listener must not stop the consumer or have the message redelivered.
      this.#log.error(
        { err: this.#transport.describeError(err), eventId: e.id, type: e.type },
        'bus event listener failed',
      );
    }
  }

  /** A message whose signature this node's mode does not accept: counted, logged (rate-limited), not obeyed. */
  #reject(reason: Rejection, message: InboundMessage): void {
    this.#stats.rejected[reason] = (this.#stats.rejected[reason] ?? 0) + 1;
    this.#warnDropped(
      { code: busErrors.CONFBUS_BUS_SIGNATURE.code, message: REJECTION_REASONS[reason] },
      message,
    );
  }

  #warnDropped(err: { code: string; message: string }, message: InboundMessage): void {
    const allowed = this.#dropWarnings.take();
    if (allowed === undefined) return;
    this.#log.warn(
      { err, ...message.origin, ...(allowed.heldBack > 0 ? { alsoDropped: allowed.heldBack } : {}) },
      allowed.heldBack > 0
        ? `dropped bus message (and ${allowed.heldBack} more since the last line)`
        : 'dropped bus message',
    );
  }

  #dispatch(e: BusEvent): void {
    this.#stats.received[e.type] = (this.#stats.received[e.type] ?? 0) + 1;
    if (this.#options.trace) this.#trace(e);
    if (isAckEvent(e)) {
      this.emit('ack', e);
      return;
    }
    if (this.#isCommand(e)) {
      void runCommand(this.#handling, e);
      return;
    }
    if (!isRefreshEvent(e)) {
      if (!this.emit('other', e))
        this.#log.debug(
          { type: e.type, eventId: e.id },
          'ignored bus event of a type this node does not handle',
        );
      return;
    }
    if (isFromSelf(e, this.#options.busId)) return;
    this.emit('observed', e);
    if (!this.isAddressed(e)) return;
    // DEBUG: the refresh it causes logs the one INFO line ("Keys refreshed [...]" on a client).
    this.#log.debug(
      { eventId: e.id, origin: e.originService, destination: e.destinationService },
      'bus refresh',
    );
    this.#stats.refreshesHandled++;
    this.emit('refresh', e);
    void refreshThenAck(this.#handling, e);
  }

  /** Spring's TraceListener: an ack from another node (`spring.cloud.bus.ack`), or any other event received. */
  #trace(e: BusEvent): void {
    if (!isAckEvent(e)) {
      const { type, id, originService: origin, destinationService: destination } = e;
      this.#log.debug({ signal: 'spring.cloud.bus.sent', type, id, origin, destination }, 'bus trace');
    } else if (!isFromSelf(e, this.#options.busId)) {
      const event = e.event.slice(e.event.lastIndexOf('.') + 1);
      const { ackId: id, originService: origin, ackDestinationService: destination } = e;
      this.#log.debug({ signal: 'spring.cloud.bus.ack', event, id, origin, destination }, 'bus trace');
    }
  }

  #isCommand(e: BusEvent): boolean {
    if (this.#options.commandHandler === undefined) return false;
    if (!isEnvironmentChangeEvent(e) && !isShutdownEvent(e)) return false;
    return !isFromSelf(e, this.#options.busId) && this.isAddressed(e);
  }
}

/** One decoding path for every transport: the body as bytes, as text, or as JSON the client already parsed. */
function decodeInbound(body: InboundBody): BusEvent {
  if ('bytes' in body) return decodeBusEvent(body.bytes);
  if ('text' in body) return decodeBusEvent(body.text);
  return busEventFromJson(body.json);
}
