/**
 * Messages the broker routed into the queues of a vhost, read from RabbitMQ itself (no management plugin here):
 * each classic queue numbers the messages it takes (`next_seq_id` in its backing queue status), so the sum over
 * the vhost's queues, before and after, counts the deliveries in between. Queues consumed without acks (the raw
 * tap's) hand messages straight to the consumer without numbering them, so a tap does not count itself.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Sum of `next_seq_id` over the vhost's queues; only queues that exist now are counted. `node`: another broker
 * node than the default one (the benchmarks' private broker).
 */
export async function brokerDeliveries(vhost: string, node?: string): Promise<number> {
  if (!/^[\w.-]+$/.test(vhost)) throw new Error(`unexpected vhost name ${vhost}`);
  const expression =
    'lists:sum([proplists:get_value(next_seq_id, proplists:get_value(backing_queue_status, ' +
    `rabbit_amqqueue:info(Q, [backing_queue_status]), []), 0) || Q <- rabbit_amqqueue:list(<<"${vhost}">>)]).`;
  const target = node === undefined ? [] : ['-n', node];
  const { stdout } = await run('rabbitmqctl', [...target, '-q', 'eval', expression], { timeout: 60_000 });
  const count = Number(stdout.trim());
  if (!Number.isSafeInteger(count)) throw new Error(`rabbitmqctl eval answered ${stdout.trim()}`);
  return count;
}
