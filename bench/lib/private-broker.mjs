// A RabbitMQ node of the benchmark's own, for fleets larger than the shared broker accepts: testkit's private node
// (own node name, ports, data and log folders under a temp dir; the shared broker is never touched) started with
// the file limit raised, stopped and removed at the end of the run. Needs rabbitmq-server and root.
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './cleanup.mjs';

/**
 * Starts the node and resolves when it accepts AMQP connections as guest/guest on 127.0.0.1:`port`; `distPort`
 * is its Erlang distribution port (rabbitmqctl talks to the node there).
 */
export async function startPrivateBroker({ port, distPort, fileLimit = 20_000 }) {
  const { startPrivateRabbit } = await tsImport('@confbus/testkit/private-rabbit', import.meta.url);
  const broker = await startPrivateRabbit({ port, distPort, fileLimit, prefix: 'confbus-bench' });
  const stop = onCleanup(() => broker.stop());
  const handles = await broker.ctl('eval', 'file_handle_cache:get_limit().');
  // A named vhost as on the shared broker (the delivery counter reads queues by vhost name).
  const vhost = 'confbus-bench';
  await broker.ctl('add_vhost', vhost);
  await broker.ctl('set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*');
  return {
    node: broker.node,
    pid: broker.pid,
    port,
    vhost,
    sockets: Math.floor(Number(handles) * 0.9) - 2,
    stop,
  };
}
