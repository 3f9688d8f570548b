/**
 * What a bus node needs from a broker: move bytes. A transport owns the connection, Spring's topology on its
 * broker (exchange and queue on AMQP, topic and consumer group on Kafka) and its reconnects; it knows nothing of
 * events' meaning. Everything else (decoding, addressing, acks, logging) is the node's, shared by all transports.
 */
import type { BusEvent } from '@confbus/core';

/** A received message body, in whatever form the client library handed it over. */
export type InboundBody =
  | { readonly bytes: Uint8Array }
  | { readonly text: string }
  /** Already parsed from JSON by the client library (rabbitmq-client does it for application/json). */
  | { readonly json: unknown };

export interface InboundMessage {
  readonly body: InboundBody;
  /** Where it came from, for log lines only (routing key; topic, partition and offset). */
  readonly origin: Readonly<Record<string, unknown>>;
  /** The `confbus-signature` header, when the message carries one (signing/message-signing.ts). */
  readonly signature?: string;
}

/** How a transport reports to its node; called synchronously from the transport's callbacks. */
export interface TransportListener {
  message(message: InboundMessage): void;
  /** Subscribed: every message sent from now on reaches `message`. Called again after each reconnect. */
  up(): void;
  /** The connection failed or was lost; the transport keeps retrying in the background. */
  down(error: unknown): void;
}

export interface BusTransport {
  /** Loggable facts for the node's lines and health (queue or topic and group, broker addresses); no secrets. */
  readonly details: Readonly<Record<string, unknown>>;
  /**
   * Connects and subscribes. Resolves once subscribed, or once the first attempt has failed (reported through
   * `down`): an unreachable broker is not fatal, the transport keeps reconnecting in the background.
   */
  start(listener: TransportListener): Promise<void>;
  /**
   * Sends one encoded event, with its signature as the `confbus-signature` header when given; resolves when the
   * broker has taken it (publisher confirm, acks=all).
   */
  send(event: BusEvent, body: string, signature?: string): Promise<void>;
  close(): Promise<void>;
  /** A loggable summary of an error from this transport: code and message, secrets removed. */
  describeError(error: unknown): { code?: string; message: string };
}
