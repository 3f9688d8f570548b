/**
 * RSA keys from key stores made by keytool, end to end as an operator uses them: `confbus encrypt` makes the
 * values, they are pushed to a real Git repository, and `confbus server` serves them decrypted over HTTP; for
 * JKS and PKCS12, DEFAULT and OAEP, strong (GCM) and not, with {key:...}/{secret:...} prefixes, and a value
 * made for another key served as invalid. Reported as not run where keytool (a JDK) is missing.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { runConfbusCommand, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { keytoolAvailable, makeKeyStore } from '@confbus/testkit/key-stores';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const keytool = keytoolAvailable();
const SUITE = 'RSA key stores through the CLI, Git and HTTP';

if (!keytool.ok) it(SUITE, { skip: `not run: ${keytool.reason}` }, () => undefined);
else
  describe(SUITE, { timeout: 10 * 60_000 }, () => {
    let temp: { path: string; remove: () => Promise<void> };
    let remote: GitRemote;
    let stores: { jks: string; p12: string };

    before(async () => {
      temp = await makeTempDir('confbus-rsa-stores-');
      remote = await createGitRemote();
      const [jks, p12] = await Promise.all([
        makeKeyStore({
          dir: temp.path,
          file: 'keys.jks',
          type: 'JKS',
          storePassword: 'store-pw',
          entries: [{ alias: 'current', keyPassword: 'key-pw' }, { alias: 'previous' }],
        }),
        makeKeyStore({
          dir: temp.path,
          file: 'keys.p12',
          type: 'PKCS12',
          storePassword: 'p12-pw',
          entries: [{ alias: 'current' }, { alias: 'previous' }],
        }),
      ]);
      stores = { jks, p12 };
    });
    after(async () => {
      await stopAllNodeProcesses();
      await remote?.remove();
      await temp?.remove();
    });

    const variants = [
      { name: 'JKS, DEFAULT', store: 'jks', algorithm: 'DEFAULT', strong: false },
      { name: 'JKS, OAEP, strong', store: 'jks', algorithm: 'OAEP', strong: true },
      { name: 'PKCS12, DEFAULT, strong', store: 'p12', algorithm: 'DEFAULT', strong: true },
      { name: 'PKCS12, OAEP', store: 'p12', algorithm: 'OAEP', strong: false },
    ] as const;

    for (const variant of variants) {
      it(`${variant.name}: confbus encrypt → Git → confbus server`, async () => {
        const jks = variant.store === 'jks';
        const settings = [
          `--encrypt.key-store.location=${jks ? stores.jks : `file://${stores.p12}`}`,
          `--encrypt.key-store.alias=current`,
          `--encrypt.key-store.type=${jks ? 'jks' : 'PKCS12'}`,
          `--encrypt.rsa.algorithm=${variant.algorithm}`,
          `--encrypt.rsa.strong=${variant.strong}`,
          ...(jks ? ['--encrypt.key-store.secret=key-pw'] : []),
        ];
        // The store password through the environment, as an operator would pass it.
        const env = { ENCRYPT_KEYSTORE_PASSWORD: jks ? 'store-pw' : 'p12-pw' };
        const encrypt = async (text: string, extra: string[] = settings) => {
          const run = await runConfbusCommand(['encrypt', ...extra], { input: text, env });
          assert.equal(run.code, 0, run.stderr);
          return `{cipher}${run.stdout.trim()}`;
        };
        const previous = jks ? '{key:previous}{secret:store-pw}' : '{key:previous}';
        const otherStrength = settings.map((s) =>
          s.startsWith('--encrypt.rsa.strong') ? `--encrypt.rsa.strong=${!variant.strong}` : s,
        );
        await remote.commit({
          'app.yml': [
            `current: '${await encrypt('current secret ✓')}'`,
            `rotated: '${await encrypt(`${previous}older secret`)}'`,
            `mismatch: '${await encrypt('made with the other mode', otherStrength)}'`,
            'plain: visible',
            '',
          ].join('\n'),
        });
        const server = await startConfbusServer({
          gitUri: remote.url,
          basedir: join(temp.path, `mirror-${variants.indexOf(variant)}`),
          args: settings,
          env,
        });
        const served = (await (await fetch(`${server.url}/app/default`)).json()) as {
          propertySources: Array<{ source: Record<string, string> }>;
        };
        assert.deepEqual(served.propertySources[0]?.source, {
          plain: 'visible',
          current: 'current secret ✓',
          rotated: 'older secret',
          'invalid.mismatch': '<n/a>',
        });
        const key = await (await fetch(`${server.url}/key`)).text();
        assert.match(key, /^ssh-rsa AAAAB3NzaC1yc2E\S+ application$/);
        await server.process.stop();
      });
    }
  });
