/**
 * What a BusNode is built from and what it reports: its options and handlers (this node's refresh, Spring's
 * other bus commands), the counts it keeps for the metrics, and the events it emits.
 */
import type { MessageSigning } from './signing/message-signing.js';
import type { AckBusEvent, BusEvent, Logger, RefreshBusEvent, RefreshOutcome } from '@confbus/core';
import type { BusTransport } from './transport.js';

/** Spring Cloud Bus's default destination (`spring.cloud.bus.destination`): exchange or topic name. */
export const DEFAULT_BUS_DESTINATION = 'springCloudBus';

/** What the node adds to the ack of a refresh it handled (Spring ignores the extra fields). */
export interface AckDetails {
  /** The config version (commit) the node serves after the refresh. */
  readonly configVersion?: string;
  /** Whether the node applied the refresh, or kept its configuration (and why: `reason`). */
  readonly outcome?: RefreshOutcome;
  readonly reason?: string;
}

/** This node's own refresh; the node acks the event once `refresh` has settled. */
export interface BusRefreshHandler {
  refresh(event: RefreshBusEvent): Promise<AckDetails>;
}

/** Spring's other bus commands, run for events addressed to this node and acked as Spring does. */
export interface BusCommandHandler {
  /** `busenv`: set these properties on this node (which then refreshes). */
  environmentChange(values: Readonly<Record<string, string>>): Promise<void>;
  /** `busshutdown`: shut this node down gracefully; called after the ack has been sent. */
  shutdown(): Promise<void>;
}

export interface BusNodeOptions {
  readonly transport: BusTransport;
  /** This node's service id (`spring.cloud.bus.id`), e.g. from `defaultBusId()`. */
  readonly busId: string;
  /** `spring.cloud.config.name` entries that also address this node (see `isForSelf`). */
  readonly configNames?: readonly string[];
  /** Send an ack for each refresh handled (`spring.cloud.bus.ack.enabled`). */
  readonly ackEnabled: boolean;
  /** Destination of the acks (`spring.cloud.bus.ack.destination-service`); everyone when absent. */
  readonly ackDestination?: string;
  /** Runs for each refresh addressed to this node; without one the node only acks (a bare bus member). */
  readonly refreshHandler?: BusRefreshHandler;
  /** Runs `busenv` and `busshutdown` events addressed to this node; without one they are only passed on. */
  readonly commandHandler?: BusCommandHandler;
  readonly logger: Logger;
  /**
   * Log every event received, and every ack from another node, at DEBUG in the shape Spring's TraceListener
   * builds (`spring.cloud.bus.trace.enabled`; Spring stores nothing either).
   */
  readonly trace?: boolean;
  /** How long a publish waits for the broker before it fails (`confbus.bus.publish-timeout`); default 5 s. */
  readonly publishTimeoutMs?: number;
  /**
   * `dropped bus message` lines allowed per window (default DROPPED_MESSAGE_LOG_LIMIT: 5 per 10 s); the rest are
   * counted in the next line and in `stats.dropped`. A test that reads every drop's reason raises it.
   */
  readonly droppedMessageLog?: { readonly lines: number; readonly windowMs: number };
  /** Signs what is sent and checks what is received (confbus.bus.signing.*); absent: off, as in Spring. */
  readonly signing?: MessageSigning;
}

/**
 * Running counts of what the node moved, read by the server's and the client's metrics at scrape time (plain
 * numbers, so the bus package does not depend on a metrics library and the hot path pays one increment).
 */
export interface BusNodeStats {
  /** Events this node published (refreshes, acks, presence…), by event type. */
  readonly published: Record<string, number>;
  readonly publishFailures: number;
  /** Well-formed events received, by event type, whoever they were addressed to. */
  readonly received: Record<string, number>;
  /** Messages dropped because they did not decode as a bus event. */
  readonly dropped: number;
  /** Messages not obeyed because of their signature (confbus.bus.signing.*), by reason. */
  readonly rejected: Record<string, number>;
  /** Refreshes addressed to this node and handled by it. */
  readonly refreshesHandled: number;
  /** Times the transport came up after having been down (the first connection excluded). */
  readonly reconnects: number;
}

export interface BusNodeEvents {
  refresh: [e: RefreshBusEvent];
  /** Every refresh event from another node, addressed to this one or not (config servers track them all). */
  observed: [e: RefreshBusEvent];
  ack: [e: AckBusEvent];
  /** Events of any other type (environment changes, confbus presence), whatever their destination. */
  other: [e: BusEvent];
  connected: [];
  disconnected: [];
  reconnected: [];
}

/** The counters a node keeps (it alone writes them). */
export type MutableStats = { -readonly [K in keyof BusNodeStats]: BusNodeStats[K] };

export function emptyStats(): MutableStats {
  return {
    published: {},
    publishFailures: 0,
    received: {},
    dropped: 0,
    rejected: {},
    refreshesHandled: 0,
    reconnects: 0,
  };
}
