// The public API of @confbus/bus (see README.md). Everything else in src/ is internal: tests import it from src.
export { BusNode } from './bus-node.js';
export {
  DEFAULT_BUS_DESTINATION,
  type AckDetails,
  type BusCommandHandler,
  type BusNodeEvents,
  type BusNodeOptions,
  type BusNodeStats,
  type BusRefreshHandler,
} from './bus-node-options.js';
export {
  busNodeFromSettings,
  createBusTransport,
  type ClientBusMember,
  type ServerBusMember,
  type TransportContext,
} from './bus-node-factory.js';
export type { BusTransport, InboundBody, InboundMessage, TransportListener } from './transport.js';
export { AmqpTransport, type AmqpTransportOptions } from './amqp/amqp-transport.js';
export { KafkaTransport, type KafkaTransportOptions } from './kafka/kafka-transport.js';
export { busErrors } from './errors.js';
export { followCounter, followCounterByLabel, registerBusMetrics } from './bus-metrics.js';
export {
  MessageSigning,
  SIGNATURE_HEADER,
  type Rejection,
  type SignatureVerdict,
} from './signing/message-signing.js';
