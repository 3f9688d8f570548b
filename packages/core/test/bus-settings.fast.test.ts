// Fast tier: which broker the settings choose, and Kafka's broker list as Spring's binder reads it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { busBinder, kafkaBrokers } from '../src/settings/bus-settings.js';
import { SettingsError, busSettingSpecs, readBusSettings, resolveSettings } from '../src/index.js';

const settings = (args: string[], env: Record<string, string> = {}) =>
  resolveSettings(busSettingSpecs, { args, env }, { unknownKeys: 'keep' });

describe('bus transport settings', () => {
  it('keeps RabbitMQ when nothing names Kafka (as before Kafka existed)', () => {
    assert.equal(busBinder(settings([])), 'rabbit');
    assert.equal(busBinder(settings(['--spring.rabbitmq.host=rabbit'])), 'rabbit');
  });

  it('takes Kafka when Kafka brokers are set, from arguments or the environment', () => {
    assert.equal(busBinder(settings(['--spring.kafka.bootstrap-servers=k1:9092'])), 'kafka');
    assert.equal(busBinder(settings([], { SPRING_CLOUD_STREAM_KAFKA_BINDER_BROKERS: 'k1' })), 'kafka');
  });

  it('refuses broker settings for both without a choice, as Spring refuses two binders', () => {
    assert.throws(
      () =>
        busBinder(settings(['--spring.rabbitmq.host=rabbit', '--spring.kafka.bootstrap-servers=k1:9092'])),
      (error: unknown) =>
        error instanceof SettingsError &&
        /spring\.rabbitmq\.host and spring\.kafka\.bootstrap-servers are set/.test(error.message) &&
        /spring\.cloud\.stream\.default-binder/.test(error.message),
    );
  });

  it('follows spring.cloud.stream.default-binder when set, and rejects other values', () => {
    const both = ['--spring.rabbitmq.host=rabbit', '--spring.kafka.bootstrap-servers=k1:9092'];
    assert.equal(busBinder(settings([...both, '--spring.cloud.stream.default-binder=rabbit'])), 'rabbit');
    assert.equal(busBinder(settings([...both, '--spring.cloud.stream.default-binder=kafka'])), 'kafka');
    assert.equal(busBinder(settings(['--spring.cloud.stream.default-binder=kafka'])), 'kafka');
    assert.throws(
      () => busBinder(settings(['--spring.cloud.stream.default-binder=pulsar'])),
      /neither rabbit nor kafka/,
    );
  });

  it('reads Kafka brokers as the binder does: its brokers win unless they are the default, port 9092 added', () => {
    assert.deepEqual(kafkaBrokers(settings([])), ['localhost:9092']);
    assert.deepEqual(kafkaBrokers(settings(['--spring.kafka.bootstrap-servers=a:1,b:2'])), ['a:1', 'b:2']);
    assert.deepEqual(
      kafkaBrokers(
        settings([
          '--spring.kafka.bootstrap-servers=a:1',
          '--spring.cloud.stream.kafka.binder.brokers=x,y:3',
        ]),
      ),
      ['x:9092', 'y:3'],
    );
    assert.deepEqual(
      kafkaBrokers(
        settings([
          '--spring.kafka.bootstrap-servers=a:1',
          '--spring.cloud.stream.kafka.binder.brokers=localhost',
        ]),
      ),
      ['a:1'],
    );
    assert.throws(
      () => kafkaBrokers(settings(['--spring.kafka.bootstrap-servers=kafka://a:1'])),
      /not host\[:port\]/,
    );
  });

  it('reads only the chosen broker: a broken RabbitMQ address does not stop a Kafka bus', () => {
    const chosen = readBusSettings(
      settings([
        '--spring.cloud.bus.enabled=true',
        '--spring.cloud.stream.default-binder=kafka',
        '--spring.rabbitmq.addresses=amqp://[broken',
      ]),
    ).transport;
    assert.equal(chosen.binder, 'kafka');
    assert.deepEqual(chosen.binder === 'kafka' ? chosen.kafka : undefined, {
      brokers: ['localhost:9092'],
      autoCreateTopics: true,
      replicationFactor: -1,
    });
  });

  it('reads an amqps:// address as TLS on port 5671; mixed with amqp:// it is refused naming no credentials', () => {
    const transport = readBusSettings(
      settings([
        '--spring.cloud.bus.enabled=true',
        '--spring.rabbitmq.addresses=amqps://app:s3cret@rabbit.internal',
      ]),
    ).transport;
    assert.ok(transport.binder === 'rabbit');
    assert.deepEqual(transport.rabbit.addresses, ['rabbit.internal:5671']);
    assert.equal(transport.rabbit.password, 's3cret');
    assert.equal(transport.rabbit.tls?.verifyHostname, true);
    assert.throws(
      () =>
        readBusSettings(
          settings([
            '--spring.rabbitmq.addresses=amqps://app:s3cret@rabbit.internal,amqp://app:s3cret@other',
          ]),
        ),
      (error: unknown) =>
        error instanceof SettingsError &&
        /mixes amqp:\/\/ and amqps:\/\//.test(error.message) &&
        !error.message.includes('s3cret'),
    );
  });
});
