/**
 * A raw amqplib consumer bound to the bus exchange, independent of our BusNode, so tests see exactly what went
 * over the wire. `drain()` publishes a sentinel and waits for it: everything published (and confirmed) before
 * the call is then known to be in `messages`, so "nothing was published" is checked without sleeping.
 */
import { randomUUID } from 'node:crypto';
import amqplib, { type ConsumeMessage } from 'amqplib';

export interface TappedMessage {
  body: Record<string, unknown>;
  raw: string;
  routingKey: string;
  contentType: string | undefined;
}

export interface RawBusTap {
  readonly messages: TappedMessage[];
  /** Waits until every message published before this call has arrived; returns the ones after `from`. */
  drain(from?: number): Promise<TappedMessage[]>;
  /** Publishes a hand-built JSON body to the bus exchange. */
  publish(body: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

const SENTINEL_TYPE = 'ConfbusTestSentinel';

export async function openRawBusTap(amqpUrl: string, exchange = 'springCloudBus'): Promise<RawBusTap> {
  const connection = await amqplib.connect(amqpUrl);
  connection.on('error', () => undefined);
  const channel = await connection.createConfirmChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
  await channel.bindQueue(queue, exchange, '#');
  const messages: TappedMessage[] = [];
  const sentinels = new Map<string, () => void>();
  await channel.consume(
    queue,
    (msg) => {
      if (msg) tapped(msg, messages, sentinels);
    },
    { noAck: true },
  );

  const publish = async (body: Record<string, unknown>): Promise<void> => {
    channel.publish(exchange, exchange, Buffer.from(JSON.stringify(body)), {
      contentType: 'application/json',
    });
    await channel.waitForConfirms();
  };

  return {
    messages,
    async drain(from = 0) {
      const id = randomUUID();
      const arrived = sentinelArrival(sentinels, id);
      await publish({
        type: SENTINEL_TYPE,
        timestamp: Date.now(),
        originService: 'raw-bus-tap:0:sentinel',
        destinationService: 'nobody:**',
        id,
      });
      await arrived;
      return messages.slice(from);
    },
    publish,
    async close() {
      await connection.close().catch(() => undefined);
    },
  };
}

/** Keeps a message that went over the bus, or signals the sentinel it is. */
function tapped(msg: ConsumeMessage, messages: TappedMessage[], sentinels: Map<string, () => void>): void {
  const raw = msg.content.toString('utf8');
  const body = JSON.parse(raw) as Record<string, unknown>;
  if (body.type === SENTINEL_TYPE) {
    sentinels.get(String(body.id))?.();
    return;
  }
  messages.push({
    body,
    raw,
    routingKey: msg.fields.routingKey,
    contentType: msg.properties.contentType,
  });
}

/** Resolves when the sentinel `id` comes back (30 s at most). */
function sentinelArrival(sentinels: Map<string, () => void>, id: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bus sentinel did not come back in 30 s')), 30_000);
    sentinels.set(id, () => {
      clearTimeout(timer);
      sentinels.delete(id);
      resolve();
    });
  });
}
