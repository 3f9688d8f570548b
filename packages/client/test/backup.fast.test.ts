import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { readBackup } from '../src/backup/backup-file.js';
import { CaptureLogger } from './support/capture-logger.js';

describe('last-known-good backup', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
    stub.setEnvironment('app', 'default', {
      version: 'd'.repeat(40),
      propertySources: [
        {
          name: 'repo/app.yml',
          source: {
            'group.comment': 'remote',
            'db.password': 's3cret-value',
            n: 3,
            big: 12345678901234567891n,
            'big.token': 98765432109876543210n,
            'spring.datasource.url': 'jdbc:postgresql://app:url-pa55@db.internal:5432/app',
          },
        },
      ],
    });
  });
  after(async () => {
    await stub.stop();
    await temp.remove();
  });

  const start = (file: string, extra: string[] = [], logger = new CaptureLogger()) =>
    ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=app',
        `--confbus.client.backup.file=${file}`,
        ...extra,
      ],
      env: {},
      cwd: temp.path,
      logger,
    });

  const whileServerDown = async <T>(fn: () => Promise<T>): Promise<T> => {
    stub.setFailing('close');
    try {
      return await fn();
    } finally {
      stub.setFailing(null);
    }
  };

  it('writes the backup (0600) with secrets encrypted, and starts from it when the server is down', async () => {
    const file = join(temp.path, 'enc', 'backup.json');
    const key = ['--confbus.client.backup.key=correct horse battery staple'];
    const first = await start(file, key);
    await first.close();
    const text = await readFile(file, 'utf8');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.ok(!text.includes('s3cret-value'), 'secret stored in clear');
    assert.ok(!text.includes('url-pa55'), 'a URI password stored in clear (issue #15)');
    assert.ok(!text.includes('correct horse'), 'key material stored');
    assert.ok(text.includes('"group.comment": "remote"'));

    const logger = new CaptureLogger();
    const restored = await whileServerDown(() => start(file, key, logger));
    assert.equal(restored.status.source, 'backup');
    assert.equal(restored.status.version, 'd'.repeat(40));
    assert.equal(restored.getString('group.comment'), 'remote');
    assert.equal(restored.getString('db.password'), 's3cret-value');
    assert.equal(
      restored.getString('spring.datasource.url'),
      'jdbc:postgresql://app:url-pa55@db.internal:5432/app',
    );
    assert.equal(restored.getNumber('n'), 3);
    // Integers beyond 2^53 survive the backup to the last digit, secret (encrypted) or not.
    assert.equal(restored.get('big'), 12345678901234567891n);
    assert.equal(restored.get('big.token'), 98765432109876543210n);
    assert.ok(
      logger.lines.some((line) => /Starting from the last-known-good configuration backup/.test(line)),
    );

    // Once the server answers again, a refresh moves the client back to it.
    await restored.refresh();
    assert.equal(restored.status.source, 'server');
    await restored.close();

    const wrongKey = new CaptureLogger();
    const wrong = await whileServerDown(() =>
      start(file, ['--confbus.client.backup.key=another key'], wrongKey),
    );
    assert.equal(wrong.get('db.password'), undefined);
    assert.ok(wrongKey.lines.some((line) => line.includes("cannot decrypt 'db.password'")));
    assert.ok(!wrongKey.lines.join('\n').includes('s3cret-value'));
    await wrong.close();
  });

  it('leaves secrets out (warning once) without a key, or keeps them with plaintext-secrets', async () => {
    const file = join(temp.path, 'nokey.json');
    const logger = new CaptureLogger();
    const client = await start(file, [], logger);
    await client.refresh();
    await client.close();
    assert.equal(logger.lines.filter((line) => line.includes('secret value(s) left out')).length, 1);
    assert.ok(!(await readFile(file, 'utf8')).includes('db.password'));
    assert.ok(!(await readFile(file, 'utf8')).includes('url-pa55'));
    const restored = await whileServerDown(() => start(file));
    assert.equal(restored.get('db.password'), undefined);
    assert.equal(restored.get('group.comment'), 'remote');
    await restored.close();

    const plain = join(temp.path, 'plain.json');
    await (await start(plain, ['--confbus.client.backup.plaintext-secrets=true'])).close();
    assert.ok((await readFile(plain, 'utf8')).includes('s3cret-value'));
    assert.ok((await readFile(plain, 'utf8')).includes('url-pa55'));
  });

  it('starts on local settings when the backup file is missing', async () => {
    const logger = new CaptureLogger();
    const client = await whileServerDown(() => start(join(temp.path, 'absent.json'), [], logger));
    assert.equal(client.status.source, 'local');
    assert.ok(logger.lines.some((line) => line.includes('Cannot use the configuration backup')));
    await client.close();
  });

  it('does not start from a file that is not a backup, and says why (CONFBUS_BAD_BACKUP)', async () => {
    const other = join(temp.path, 'other.json');
    await writeFile(other, '{"format":"something-else"}\n');
    await assert.rejects(readBackup(other, undefined), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'CONFBUS_BAD_BACKUP');
      assert.equal(error.message, `${other} is not a confbus client backup (confbus-client-backup/1)`);
      return true;
    });
    const logger = new CaptureLogger();
    const client = await whileServerDown(() => start(other, [], logger));
    assert.equal(client.status.source, 'local');
    assert.ok(logger.lines.some((line) => line.includes('is not a confbus client backup')));
    await client.close();
  });
});
