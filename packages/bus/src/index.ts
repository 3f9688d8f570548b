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
// Reading the bus settings is core's internal code (the client reads them with the bus off); this is their public home.
export {
  brokerConnection,
  busBinder,
  isBusEnabled,
  readBusMemberSettings,
  kafkaBusSettings,
  type BrokerConnection,
  type BusBinder,
  type BusMemberSettings,
  type BusTransportSettings,
  type KafkaBusSettings,
} from '@confbus/core/internal';
export {
  busNodeOptionsFromSettings,
  createBusTransport,
  type TransportContext,
} from './transport-factory.js';
export type { BusTransport, InboundBody, InboundMessage, TransportListener } from './transport.js';
export { AmqpTransport, type AmqpTransportOptions } from './amqp/amqp-transport.js';
export { KafkaTransport, type KafkaTransportOptions } from './kafka/kafka-transport.js';
export { busErrors } from './errors.js';
export { followCounter, followCounterByLabel, registerBusMetrics } from './bus-metrics.js';
