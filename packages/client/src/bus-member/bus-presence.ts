/**
 * confbus presence (Spring has none): tells the config server's fleet view who this node is and which config
 * version it serves. Best effort: a node whose announcement is lost shows up again at the next presence request.
 */
import {
  type BusEvent,
  type Logger,
  createPresenceAnnouncement,
  isFromSelf,
  isPresenceRequest,
} from '@confbus/core';
import { messageOf } from '@confbus/core/internal';

/** What this node tells the config server's fleet view about itself. */
export interface BusIdentity {
  /** `spring.cloud.config.name`: the application whose configuration it serves. */
  readonly application: string;
  readonly profiles: readonly string[];
  readonly label: string | null;
  /** Epoch milliseconds. */
  readonly startedAt: number;
}

/** What presence uses of the bus member (a BusNode): three of its members, whatever transport it runs on. */
interface PresenceNode {
  readonly connected: boolean;
  isAddressed(event: BusEvent): boolean;
  publish(event: BusEvent): Promise<void>;
}

export class BusPresence {
  constructor(
    private readonly node: PresenceNode,
    private readonly options: {
      readonly busId: string;
      readonly identity: BusIdentity;
      /** The config version this node serves now (null before any fetch succeeded). */
      readonly currentVersion: () => string | null;
      /** The contract this node's bound schemas make (sent to the config servers' gate); undefined: none. */
      readonly contract?: () => Readonly<Record<string, unknown>> | undefined;
      readonly logger: Logger;
    },
  ) {}

  /** Announces this node, or (`leaving`) its departure; nothing while the bus is not connected. */
  async announce(leaving = false): Promise<void> {
    if (!this.node.connected) return;
    const { busId, identity, currentVersion, logger } = this.options;
    const contract = leaving ? undefined : this.options.contract?.();
    const event = createPresenceAnnouncement(busId, {
      ...identity,
      configVersion: currentVersion(),
      leaving,
      ...(contract === undefined ? {} : { contract }),
    });
    try {
      await this.node.publish(event);
    } catch (error) {
      logger.debug({}, `Could not announce this node on the bus: ${messageOf(error)}`);
    }
  }

  /** Answers a presence request addressed to this node (other events, and its own requests, are ignored). */
  answer(event: BusEvent): void {
    if (!isPresenceRequest(event)) return;
    if (!this.node.isAddressed(event) || isFromSelf(event, this.options.busId)) return;
    void this.announce();
  }
}
