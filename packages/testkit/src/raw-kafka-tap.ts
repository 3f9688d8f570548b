/**
 * A raw consumer of the bus topic on a test Kafka broker, independent of BusNode, so tests see exactly the
 * records that went over the wire (key, value, headers), whoever wrote them: a confbus node or Spring's own
 * Kafka binder. It reads from the beginning of the topic: with 'latest' the end is fixed only when the
 * group's assignment arrives, so a record published before that would be missed.
 */
import { Consumer } from '@platformatic/kafka';

export interface RawKafkaRecord {
  readonly topic: string;
  readonly key: Buffer | undefined;
  /** The value as UTF-8 text ('' for a record without a value). */
  readonly value: string;
  /** Header names and values as text. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface RawKafkaTap {
  /** Every record read so far, in topic order. */
  readonly records: readonly RawKafkaRecord[];
  close(): Promise<void>;
}

export async function openRawKafkaTap(bootstrap: string, topic = 'springCloudBus'): Promise<RawKafkaTap> {
  const consumer = new Consumer({
    clientId: 'raw-tap',
    groupId: `raw-tap.${Date.now()}.${process.pid}`,
    bootstrapBrokers: [bootstrap],
  });
  const closeConsumer = () => new Promise<void>((resolve) => consumer.close(true, () => resolve()));
  const records: RawKafkaRecord[] = [];
  try {
    const stream = await consumer.consume({
      topics: [topic],
      mode: 'earliest',
      autocommit: false,
      maxWaitTime: 500,
    });
    stream.on('data', (record) => {
      // Typed as always there, but absent on the wire for a record without a key (Spring's) or a value.
      const key = record.key as Buffer | undefined;
      const value = record.value as Buffer | undefined;
      records.push({
        topic: record.topic,
        key: key?.length ? key : undefined,
        value: value?.toString('utf8') ?? '',
        headers: Object.fromEntries(
          [...record.headers].map(([name, text]) => [name.toString(), text.toString()]),
        ),
      });
    });
    // A broker restart in a later test breaks this consumer; by then it has been read.
    stream.on('error', () => undefined);
    return {
      records,
      async close() {
        await stream.close().catch(() => undefined);
        await closeConsumer();
      },
    };
  } catch (error) {
    await closeConsumer();
    throw error;
  }
}
