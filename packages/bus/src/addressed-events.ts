/**
 * What a BusNode runs for an event addressed to it, and its ack: a command (busenv, busshutdown) goes to the
 * command handler, a refresh to the refresh handler. Spring's BusConsumer acks on receipt; confbus acks a refresh
 * once it is done, carrying the config version the node then serves (`configVersion`, which Spring ignores).
 */
import {
  type AckBusEvent,
  type BusEvent,
  type Logger,
  type RefreshBusEvent,
  createAckEvent,
  isEnvironmentChangeEvent,
} from '@confbus/core';
import { MAX_BUS_FIELD_LENGTH } from '@confbus/core/internal';
import type { AckDetails, BusNodeOptions } from './bus-node-options.js';

/** What the handling uses of its BusNode. */
export interface HandlingContext {
  readonly options: BusNodeOptions;
  readonly log: Logger;
  publish(e: BusEvent): Promise<void>;
  /** Once the node is closed, nothing is acked. */
  isClosed(): boolean;
  describeError(err: unknown): { code?: string; message: string };
}

/** An environment change is acked once applied; a shutdown is acked first, while the node can still send. */
export async function runCommand(node: HandlingContext, e: BusEvent): Promise<void> {
  const handler = node.options.commandHandler!;
  node.log.info({ eventId: e.id, type: e.type, origin: e.originService }, 'bus command');
  try {
    if (isEnvironmentChangeEvent(e)) {
      await handler.environmentChange(e.values);
      await ack(node, e);
    } else {
      await ack(node, e);
      await handler.shutdown();
    }
  } catch (err) {
    node.log.error({ err: node.describeError(err), eventId: e.id }, 'bus command failed');
  }
}

/** Acks `e` (with the config version served and the refresh's outcome, when known); whether the ack went out. */
async function ack(node: HandlingContext, e: BusEvent, details: AckDetails = {}): Promise<boolean> {
  if (!node.options.ackEnabled || node.isClosed()) return false;
  const { configVersion, outcome, reason } = details;
  const ackEvent: AckBusEvent = {
    ...createAckEvent(node.options.busId, e, node.options.ackDestination),
    ...(configVersion === undefined ? {} : { configVersion }),
    ...(outcome === undefined ? {} : { outcome }),
    ...(reason === undefined ? {} : { reason: reason.slice(0, MAX_BUS_FIELD_LENGTH) }),
  };
  try {
    await node.publish(ackEvent);
    return true;
  } catch (err) {
    node.log.warn({ err: node.describeError(err), ackId: e.id }, 'could not send bus ack');
    return false;
  }
}

/** Spring acks on receipt; confbus acks once the refresh is done, so an ack means "serving the new config". */
export async function refreshThenAck(node: HandlingContext, e: RefreshBusEvent): Promise<void> {
  let details: AckDetails = {};
  const handler = node.options.refreshHandler;
  if (handler) {
    try {
      details = await handler.refresh(e);
    } catch (err) {
      // The handler reports its own failures; the event still counts as handled and is acked (as in Spring).
      node.log.error({ err: node.describeError(err), eventId: e.id }, 'bus refresh handler failed');
    }
  }
  if (await ack(node, e, details))
    node.log.debug(
      { ackId: e.id, configVersion: details.configVersion ?? null, outcome: details.outcome ?? null },
      'Sent bus ack',
    );
}
