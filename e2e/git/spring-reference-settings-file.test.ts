/**
 * The real `confbus server` started from nothing but a settings file written the way Spring Cloud Config's
 * reference documentation writes one: camelCase (its SSH section: ignoreLocalSshSettings, privateKey,
 * knownHostsFile, strictHostKeyChecking, preferredAuthentications; searchPaths, cloneOnStart) and kebab-case
 * (default-label, try-master-branch, force-pull, accept-empty) mixed in one file, an unencrypted PEM key as in
 * its example, and the health and plain-text settings beside them. Against a real sshd with a real key pair.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN, getJson } from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { generateSshKeyPair, startSshd, type SshKeyPair, type Sshd } from '@confbus/testkit/sshd';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const LISTENING = /Config server listening on http:\/\/127\.0\.0\.1:(\d+)/;

describe('confbus server from a Spring reference-style settings file (real sshd)', () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let sshd: Sshd;
  let key: SshKeyPair;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'application.yml': 'greeting: over ssh\n',
      'orders/orders.yml': 'orders:\n  limit: 10\n',
      'orders/orders-prod.properties': 'orders.limit=100\n',
    });
    temp = await makeTempDir();
    key = await generateSshKeyPair(temp.path, { type: 'rsa', pem: true });
    sshd = await startSshd([key.publicKey]);
  });
  after(async () => {
    await stopAllNodeProcesses();
    await sshd?.stop();
    await remote?.remove();
    await temp?.remove();
  });

  it('starts, clones over ssh and serves the search paths', async () => {
    const knownHosts = join(temp.path, 'known_hosts');
    await writeFile(knownHosts, `${sshd.knownHostsLine}\n`);
    // The key indented under `privateKey: |` exactly as in Spring's reference example (25 columns).
    const keyBlock = key.privateKey.trim().replace(/^/gm, ' '.repeat(25));
    const settingsFile = join(temp.path, 'application.yml');
    await writeFile(
      settingsFile,
      `server:
  port: 0
  address: 127.0.0.1
spring:
  cloud:
    config:
      server:
        accept-empty: true
        health:
          downHealthStatus: OUT_OF_SERVICE
        encrypt:
          plainTextEncrypt: false
        git:
          uri: ${sshd.url(remote.path)}
          basedir: ${join(temp.path, 'mirror')}
          default-label: master
          try-master-branch: true
          force-pull: true
          searchPaths: "{application}"
          cloneOnStart: true
          timeout: 10
          ignoreLocalSshSettings: true
          strictHostKeyChecking: true
          knownHostsFile: ${knownHosts}
          preferredAuthentications: publickey
          privateKey: |
${keyBlock}
`,
    );
    const child = startNodeProcess(CONFBUS_BIN, ['server', `--spring.config.location=${settingsFile}`]);
    const port = Number(LISTENING.exec(await child.waitForLine(LISTENING, 60_000))?.[1]);
    const base = `http://127.0.0.1:${port}`;

    const orders = await getJson(`${base}/orders/prod`);
    assert.equal(orders.status, 200, JSON.stringify(orders.body));
    const body = orders.body as { propertySources: Array<{ name: string; source: Record<string, unknown> }> };
    assert.deepEqual(
      body.propertySources.map((s) => s.name.replace(sshd.url(remote.path), '<uri>')),
      ['<uri>/orders/orders-prod.properties', '<uri>/orders/orders.yml', '<uri>/application.yml'],
    );
    assert.equal(body.propertySources[0]?.source['orders.limit'], '100');
    const health = await getJson(`${base}/actuator/health`);
    assert.equal(health.status, 200);
    assert.equal((health.body as { status: string }).status, 'UP');

    const output = child.lines.join('\n');
    assert.ok(!output.includes(key.privateKey.split('\n')[1] ?? 'x'), 'key material in the output');
    assert.ok(!/Unknown setting|unsupported Spring setting/i.test(output), output);
    await child.stop();
  });
});
