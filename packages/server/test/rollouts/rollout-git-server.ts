/**
 * The fixture the rollout tests on real Git share: a remote whose default branch holds commit A and whose branch
 * `next` holds B (`orders.yml`, greeting a and b), and a server on it with no bus whose rollouts never tick on
 * their own, so a rollout stays where the test puts it.
 */
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

export interface RolloutGitServer {
  readonly remote: GitRemote;
  readonly server: TestServer;
  /** The default branch's commit. */
  readonly A: string;
  /** The commit on branch `next`, what a rollout moves to. */
  readonly B: string;
  stop(): Promise<void>;
}

/** `settings` are added to (and may replace) the fixture's own. */
export async function startRolloutGitServer(
  settings: Record<string, string> = {},
): Promise<RolloutGitServer> {
  const remote = await createGitRemote();
  const A = await remote.commit({ 'orders.yml': 'greeting: a\n' });
  const B = await remote.commit({ 'orders.yml': 'greeting: b\n' }, { branch: 'next' });
  const server = await startGitTestServer({
    'spring.cloud.config.server.git.uri': remote.url,
    'spring.cloud.bus.enabled': 'false',
    'confbus.server.rollouts.tick-ms': '60000',
    ...settings,
  });
  return {
    remote,
    server,
    A,
    B,
    async stop() {
      await server.stop();
      await remote.remove();
    },
  };
}
