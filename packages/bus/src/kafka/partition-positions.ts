/**
 * Where this node is in each partition of the bus topic: the next offset to read. Kept in memory (an anonymous
 * group commits nothing a later node would reuse), so after a lost connection the node resumes where it was and
 * receives the events sent meanwhile — clamped to what the broker still has, in case it lost or expired them.
 */
import type { Consumer } from '@platformatic/kafka';

const LATEST = -1n;
const EARLIEST = -2n;

export class PartitionPositions {
  readonly #next = new Map<number, bigint>();

  consumed(partition: number, offset: bigint): void {
    this.#next.set(partition, offset + 1n);
  }

  /**
   * The offsets to start reading at: the remembered position of each partition, else (first subscription, a
   * new partition) its end — Spring's `latest` for anonymous consumers. Remembered from then on, so a
   * reconnect before any event arrived still resumes from there.
   */
  async resumeOffsets(
    consumer: Consumer<Buffer, Buffer, Buffer, Buffer>,
    topic: string,
  ): Promise<{ topic: string; partition: number; offset: bigint }[]> {
    const [ends, starts] = await Promise.all([
      consumer.listOffsets({ topics: [topic], timestamp: LATEST }),
      consumer.listOffsets({ topics: [topic], timestamp: EARLIEST }),
    ]);
    const end = ends.get(topic) ?? [];
    const start = starts.get(topic) ?? [];
    return end.map((last, partition) => {
      const first = start[partition] ?? 0n;
      const remembered = this.#next.get(partition);
      let offset = remembered ?? last;
      if (offset > last) offset = last; // the broker lost events we had read: go on from its end
      if (offset < first) offset = first; // retention dropped what we had not read yet: from its start
      this.#next.set(partition, offset);
      return { topic, partition, offset };
    });
  }
}
