/**
 * The npm `cloud-config-client` (the most used Node client for Spring Cloud Config) pointed at confbus
 * unchanged: profiles joined as `%2C`, labels with `%2F`, no Accept header.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

interface CloudConfig {
  get(key: string): unknown;
  properties: Record<string, unknown>;
  raw: { version: string; label: string | null };
}
const cloudConfigClient = createRequire(import.meta.url)('cloud-config-client') as {
  load(options: { endpoint: string; name: string; profiles: string[]; label?: string }): Promise<CloudConfig>;
};

describe('cloud-config-client compatibility', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'application.yml': 'shared: base\nport: 80\n',
      'my-app-dev.yml': 'shared: dev\nlevel: dev\n',
      'my-app-eu.yml': 'level: eu\n',
    });
    await remote.commit({ 'my-app-dev.yml': 'shared: feature\n' }, { branch: 'feature/x' });
    server = await startGitTestServer({ 'spring.cloud.config.server.git.uri': remote.url });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('loads with several profiles (sent as %2C), last profile winning', async () => {
    const config = await cloudConfigClient.load({
      endpoint: server.base,
      name: 'my-app',
      profiles: ['dev', 'eu'],
    });
    assert.equal(config.get('level'), 'eu');
    assert.equal(config.get('shared'), 'dev');
    assert.equal(config.get('port'), 80);
    assert.match(config.raw.version, /^[0-9a-f]{40}$/);
  });

  it('loads a label with a slash (sent as %2F)', async () => {
    const config = await cloudConfigClient.load({
      endpoint: server.base,
      name: 'my-app',
      profiles: ['dev'],
      label: 'feature/x',
    });
    assert.equal(config.get('shared'), 'feature');
    assert.equal(config.raw.label, 'feature/x');
  });

  it('rejects on an unknown label (404)', async () => {
    await assert.rejects(
      cloudConfigClient.load({ endpoint: server.base, name: 'my-app', profiles: ['dev'], label: 'nope' }),
      /404/,
    );
  });
});
