/** Settings every confbus role shares: where the settings file is, logging, the bus and the broker. */
import { rabbitTlsSettingSpecs } from './broker-tls-settings.js';
import { busSigningSettingSpecs } from './bus-signing-settings.js';
import { kafkaSecuritySettingSpecs } from './kafka-security-settings.js';
import type { SettingSpec } from './setting-spec.js';

export const settingsFileSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.config.location',
    type: 'string',
    description: 'YAML settings file to read (default: application.yml in the working directory, if present)',
  },
  {
    key: 'logging.level.root',
    type: 'string',
    default: 'info',
    description: 'Log level: trace, debug, info, warn, error',
  },
  {
    key: 'confbus.logging.format',
    type: 'string',
    default: 'auto',
    description:
      'Log line format: json (one JSON object per line, ISO times), pretty (readable lines), auto (pretty when stdout is a terminal, else json)',
  },
];

export const busSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.cloud.bus.enabled',
    type: 'boolean',
    default: false,
    description: 'Connect to the bus (RabbitMQ or Kafka: see spring.cloud.stream.default-binder)',
  },
  {
    key: 'spring.cloud.bus.destination',
    type: 'string',
    default: 'springCloudBus',
    description: 'Name of the bus: topic exchange and routing key on RabbitMQ, topic on Kafka',
  },
  {
    key: 'spring.cloud.bus.id',
    type: 'string',
    description: "This node's bus id (default app:profiles:port:random)",
  },
  {
    key: 'spring.cloud.bus.ack.enabled',
    type: 'boolean',
    default: true,
    description: 'Send an ack for each event handled',
  },
  {
    key: 'spring.cloud.bus.ack.destination-service',
    type: 'string',
    description: 'Destination of acks (default ** = everyone)',
  },
  {
    key: 'confbus.bus.publish-timeout',
    type: 'integer',
    default: 5000,
    min: 1,
    description:
      "Milliseconds a publish waits for the broker to take the event; beyond, it fails (POST /monitor answers 503 at once instead of after the client's retries)",
  },
  {
    key: 'confbus.bus.reconnect.initial-interval',
    type: 'integer',
    default: 1000,
    description: 'First delay in ms before reconnecting to the broker after a loss',
  },
  {
    key: 'confbus.bus.reconnect.max-interval',
    type: 'integer',
    default: 30000,
    description: 'Longest delay in ms between broker reconnect attempts',
  },
  ...busSigningSettingSpecs,
  { key: 'spring.rabbitmq.host', type: 'string', default: 'localhost', description: 'RabbitMQ host' },
  {
    key: 'spring.rabbitmq.port',
    type: 'integer',
    default: 5672,
    min: 1,
    max: 65535,
    description: 'RabbitMQ port',
  },
  { key: 'spring.rabbitmq.username', type: 'string', default: 'guest', description: 'RabbitMQ user' },
  {
    key: 'spring.rabbitmq.password',
    type: 'string',
    default: 'guest',
    secret: true,
    description: 'RabbitMQ password',
  },
  { key: 'spring.rabbitmq.virtual-host', type: 'string', default: '/', description: 'RabbitMQ virtual host' },
  {
    key: 'spring.rabbitmq.addresses',
    type: 'list',
    description:
      'Comma list of host[:port] or amqp://user:password@host:port/vhost entries (a cluster); overrides host and port',
  },
  ...rabbitTlsSettingSpecs,
  ...kafkaSecuritySettingSpecs,
  {
    key: 'spring.cloud.stream.default-binder',
    type: 'string',
    description:
      "The bus's broker: rabbit or kafka (default: kafka when Kafka brokers are set, else rabbit; required when both are)",
  },
  {
    key: 'spring.cloud.stream.kafka.binder.brokers',
    type: 'list',
    description:
      'Kafka brokers of the bus, host[:port] (port 9092 by default); win over spring.kafka.bootstrap-servers',
  },
  {
    key: 'spring.kafka.bootstrap-servers',
    type: 'list',
    description: "Kafka brokers, host:port (Spring Boot's key; default localhost:9092)",
  },
  {
    key: 'spring.cloud.stream.kafka.binder.auto-create-topics',
    type: 'boolean',
    default: true,
    description: 'Create the bus topic (one partition) when it does not exist',
  },
  {
    key: 'spring.cloud.stream.kafka.binder.replication-factor',
    type: 'integer',
    default: -1,
    description: "Replication factor of a bus topic confbus creates (-1: the broker's default)",
  },
];
