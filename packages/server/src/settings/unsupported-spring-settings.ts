/**
 * Spring Cloud Config Server (and Boot) settings confbus does not implement. Each is decided on whether
 * ignoring it could surprise a user in a way that matters: credentials, host verification, a proxy, TLS or
 * a different backend silently unused stop start-up; Spring-internal tuning is ignored with a warning.
 * A key that a settings declaration implements is never looked up here (declarations win).
 */
import type { UnsupportedSetting } from '@confbus/core';

const server = 'spring.cloud.config.server';
const git = `${server}.git`;

const refuse = (key: string, reason: string, isPrefix = false): UnsupportedSetting => ({
  key,
  reason,
  effect: 'refuse',
  isPrefix,
});
const warn = (key: string, reason: string, isPrefix = false): UnsupportedSetting => ({
  key,
  reason,
  effect: 'warn',
  isPrefix,
});

const BACKEND =
  'confbus serves configuration from Git, the file system (native), JDBC or Redis; a setting for another backend means a different deployment was meant.';

export const unsupportedSpringServerSettings: readonly UnsupportedSetting[] = [
  refuse(`${git}.clone-submodules`, 'files in submodules would be missing from what is served.'),
  warn(`${git}.order`, 'there is one backend; composite ordering does not apply.'),
  warn(`${git}.refresh-on-start`, 'the first request (or clone-on-start) fetches.'),
  ...['vault', 'svn', 'aws-s3', 'awsparamstore', 'awssecretsmanager', 'credhub', 'mongodb'].map((backend) =>
    refuse(`${server}.${backend}`, BACKEND, true),
  ),
  warn(
    `${server}.default-label`,
    "Spring's Git and native backends do not read it either: the default label is git.default-label (or native.default-label).",
  ),
  warn(`${server}.enabled`, 'a confbus server always serves configuration.'),
  warn(
    `${server}.monitor`,
    'POST /monitor understands every Git host Spring does, always; confbus.monitor.* sets webhook secrets (see docs/bus.md).',
    true,
  ),
  refuse(
    'spring.cloud.config.monitor.endpoint.path',
    'confbus serves the webhook at POST /monitor; a Git host sending it to the configured path would get 404.',
  ),
  warn(
    `${server}.native.version`,
    "the native backend's version is a fingerprint of the files served, so clients see each change.",
  ),
  warn(
    `${server}.native.fail-on-error`,
    'a search location that cannot be read is skipped with a warning in the log.',
  ),
  warn(`${server}.native.order`, 'there is one backend; composite ordering does not apply.'),
  refuse(
    'server.servlet.context-path',
    'confbus serves at the root, so clients using the context path would get 404; spring.cloud.config.server.prefix moves the configuration endpoints.',
  ),
  refuse(
    'spring.mvc.servlet.path',
    'confbus serves at the root, so clients using the servlet path would get 404; spring.cloud.config.server.prefix moves the configuration endpoints.',
  ),
  ...[
    'server.compression',
    'server.http2',
    'server.tomcat',
    'server.jetty',
    'server.undertow',
    'server.netty',
    'server.error',
    'server.servlet.session',
    'server.servlet.encoding',
  ].map((key) =>
    warn(key, 'confbus has its own HTTP server: only server.port and server.address apply.', true),
  ),
  ...[
    'server.shutdown',
    'server.forward-headers-strategy',
    'server.max-http-header-size',
    'server.max-http-request-header-size',
  ].map((key) =>
    warn(
      key,
      'confbus has its own HTTP server: shutdown is graceful, request sizes are confbus.server.max-* (see docs/settings.md).',
    ),
  ),
  warn('info', '/actuator/info shows the version and the commit of the build only.', true),
  warn('management.info', '/actuator/info shows the version and the commit of the build only.', true),
  warn(
    'management.metrics',
    'GET /actuator/prometheus has a fixed set of metrics (see docs/metrics.md).',
    true,
  ),
  warn('management.prometheus', 'GET /actuator/prometheus is always on (see docs/metrics.md).', true),
  warn('management.tracing', 'confbus does not export traces.', true),
  refuse(
    'spring.rabbitmq.ssl',
    'confbus reads the spring.rabbitmq.ssl keys docs/settings.md lists (no bundle or key manager algorithms); this one would go unused.',
    true,
  ),
  ...[
    'spring.rabbitmq.connection-timeout',
    'spring.rabbitmq.requested-heartbeat',
    'spring.rabbitmq.requested-channel-max',
    'spring.rabbitmq.channel-rpc-timeout',
    'spring.rabbitmq.publisher-confirm-type',
    'spring.rabbitmq.publisher-returns',
  ].map((key) => warn(key, 'confbus tunes its RabbitMQ connection itself (see docs/bus.md).')),
  ...['spring.rabbitmq.listener', 'spring.rabbitmq.template', 'spring.rabbitmq.cache'].map((key) =>
    warn(key, 'confbus tunes its RabbitMQ connection itself (see docs/bus.md).', true),
  ),
  ...['spring.kafka.ssl', 'spring.kafka.security', 'spring.kafka.properties'].map((key) =>
    refuse(
      key,
      'confbus reads the spring.kafka security keys docs/settings.md lists (security.protocol, ssl.*, properties.sasl.mechanism and sasl.jaas.config); this one would go unused.',
      true,
    ),
  ),
  ...[
    'spring.kafka.jaas',
    'spring.cloud.stream.kafka.binder.configuration',
    'spring.cloud.stream.kafka.binder.jaas',
  ].map((key) =>
    refuse(
      key,
      'confbus reads Kafka credentials from spring.kafka.properties.sasl.jaas.config only; these settings would go unused.',
      true,
    ),
  ),
  warn(
    'spring.cloud.stream.bindings',
    'confbus binds the bus itself, to spring.cloud.bus.destination (springCloudBus); set that instead.',
    true,
  ),
  warn(
    'spring.cloud.stream.rabbit',
    'confbus declares the bus exchange and queues as Spring does by default.',
    true,
  ),
  refuse(
    'spring.security.oauth2',
    'confbus authenticates with HTTP basic only (spring.security.user.*); the endpoints would be open to anyone.',
    true,
  ),
  refuse(
    'server.ssl',
    'confbus reads the server.ssl keys docs/settings.md lists (no bundle, provider or trust-certificate-private-key); these would go unused.',
    true,
  ),
  refuse(
    'management.server.port',
    'actuator endpoints are served on server.port; restrict /actuator/* in front of it instead.',
  ),
  refuse(
    'management.server',
    'actuator endpoints are served on server.port, at /actuator; restrict /actuator/* in front of it instead.',
    true,
  ),
  refuse(
    'management.endpoints.web.base-path',
    'actuator endpoints are served at /actuator; probes and scrapers pointed elsewhere would get 404.',
  ),
  warn(
    `${server}.health`,
    'only health.enabled and health.down-health-status apply; the repository check is built in (see docs/endpoints.md).',
    true,
  ),
  warn(`${server}.bootstrap`, 'confbus does not read its own configuration from the repository.'),
  warn(
    'management.endpoints',
    'the actuator endpoints confbus has are always exposed (see docs/endpoints.md).',
    true,
  ),
  warn(
    'management.endpoint',
    'the actuator endpoints confbus has are always exposed (see docs/endpoints.md).',
    true,
  ),
  warn('logging.level', 'only logging.level.root applies (one level for the whole server).', true),
  ...['logging.file', 'logging.pattern', 'logging.config', 'logging.logback'].map((key) =>
    warn(
      key,
      'confbus logs to standard output, as JSON or pretty lines (confbus.logging.format); redirect it where you need it.',
      true,
    ),
  ),
  warn('management.health', 'the health of the repository and the bus are always reported.', true),
  warn('eureka', 'confbus does not register with a discovery server; clients need its URL.', true),
  warn('spring.security.user.roles', 'there is one user and it may call every endpoint.'),
  warn(
    'spring.cloud.bus.trace.enabled',
    'GET /actuator/refresh-events records every refresh event and its acks.',
  ),
  warn('spring.cloud.bus.refresh.enabled', 'the server always publishes refresh events.'),
  warn('spring.cloud.bus.env.enabled', 'the server does not publish environment-change events.'),
];
