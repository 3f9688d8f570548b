/**
 * RSA keys from key stores made by keytool, end to end as an operator uses them: `confbus encrypt` makes the
 * values, they are pushed to a real Git repository, and `confbus server` serves them decrypted over HTTP; for
 * JKS and PKCS12, DEFAULT and OAEP, strong (GCM) and not, with {key:...}/{secret:...} prefixes, and a value
 * made for another key served as invalid. The servers log at TRACE; every log line and every answer but the
 * environment is searched for the store and key passwords, the `{secret:...}` of a cipher text and the plain
 * texts, and a server given a wrong store password stops without showing it. Reported as not run where keytool
 * (a JDK) is missing.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { runConfbusCommand, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { keytoolAvailable, makeKeyStore } from '@confbus/testkit/key-stores';
import { assertNoSecrets, secretForms } from '@confbus/testkit/secret-scan';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { fetchAnswer, fetchServerAnswers } from '../support/server-answers.js';

const keytool = keytoolAvailable();
const SUITE = 'RSA key stores through the CLI, Git and HTTP';
const PASSWORDS = {
  jksStore: 'St0re-pw-4a1',
  jksKey: 'K3y-pw-8c2',
  /** The JKS entry `previous` has a key password of its own, given by the values' {secret:...} prefix. */
  jksPrevious: 'Prev-k3y-pw-6e4',
  p12Store: 'P12-pw-5d3',
  /** Sent by a client in a {secret:...} prefix to POST /decrypt: a wrong password is a secret too. */
  wrong: 'Wr0ng-pw-7f5',
};
const PLAIN = ['current secret ✓', 'older secret', 'made with the other mode'];
const passwordForms = Object.values(PASSWORDS).flatMap(secretForms);
const allForms = [...passwordForms, ...PLAIN.flatMap(secretForms)];

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
          storePassword: PASSWORDS.jksStore,
          entries: [
            { alias: 'current', keyPassword: PASSWORDS.jksKey },
            { alias: 'previous', keyPassword: PASSWORDS.jksPrevious },
          ],
        }),
        makeKeyStore({
          dir: temp.path,
          file: 'keys.p12',
          type: 'PKCS12',
          storePassword: PASSWORDS.p12Store,
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
          '--logging.level.root=trace',
        ];
        // The passwords through the environment, as an operator would pass them.
        const env: Record<string, string> = jks
          ? { ENCRYPT_KEYSTORE_PASSWORD: PASSWORDS.jksStore, ENCRYPT_KEYSTORE_SECRET: PASSWORDS.jksKey }
          : { ENCRYPT_KEYSTORE_PASSWORD: PASSWORDS.p12Store };
        const encrypt = async (text: string, extra: string[] = settings) => {
          const run = await runConfbusCommand(['encrypt', ...extra], { input: text, env });
          assert.equal(run.code, 0, run.stderr);
          return `{cipher}${run.stdout.trim()}`;
        };
        const previous = jks ? `{key:previous}{secret:${PASSWORDS.jksPrevious}}` : '{key:previous}';
        const otherStrength = settings.map((s) =>
          s.startsWith('--encrypt.rsa.strong') ? `--encrypt.rsa.strong=${!variant.strong}` : s,
        );
        await remote.commit({
          'app.yml': [
            `current: '${await encrypt(PLAIN[0]!)}'`,
            `rotated: '${await encrypt(`${previous}${PLAIN[1]!}`)}'`,
            `mismatch: '${await encrypt(PLAIN[2]!, otherStrength)}'`,
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

        const answers = await fetchServerAnswers(server.url, 'app', 'default');
        for (const answer of answers.environment) {
          assertNoSecrets(`${answer.request}`, answer.text, passwordForms);
        }
        // A cipher text of this key, sent with a wrong key password: refused without echoing it.
        const cipher = (await encrypt('x')).slice('{cipher}'.length);
        const wrong = await fetchAnswer(server.url, '/decrypt', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: `{key:previous}{secret:${PASSWORDS.wrong}}${cipher}`,
        });
        if (jks) assert.equal(wrong.status, 400, wrong.text);
        for (const answer of [...answers.other, wrong]) {
          assertNoSecrets(`${answer.request}`, answer.text, allForms);
        }
        await server.process.stop();
        assertNoSecrets('the server log', server.process.lines.join('\n'), allForms);
      });
    }

    it('a wrong store or key password stops the server at start, naming the setting, never the password', async () => {
      const location = `--encrypt.key-store.location=${stores.jks}`;
      const cases: Array<{ env: Record<string, string>; setting: RegExp }> = [
        { env: { ENCRYPT_KEYSTORE_PASSWORD: PASSWORDS.wrong }, setting: /encrypt\.key-store\.password/ },
        {
          env: { ENCRYPT_KEYSTORE_PASSWORD: PASSWORDS.jksStore, ENCRYPT_KEYSTORE_SECRET: PASSWORDS.wrong },
          setting: /encrypt\.key-store\.secret/,
        },
      ];
      for (const { env, setting } of cases) {
        const args = [
          'server',
          '--server.port=0',
          `--spring.cloud.config.server.git.uri=${remote.url}`,
          `--spring.cloud.config.server.git.basedir=${join(temp.path, 'mirror-refused')}`,
          location,
          '--encrypt.key-store.alias=current',
          '--logging.level.root=trace',
        ];
        const run = await runConfbusCommand(args, { env, cwd: temp.path });
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(run.stdout + run.stderr, setting);
        assertNoSecrets('the output of a server that cannot open its key', run.stdout + run.stderr, allForms);
      }
    });
  });
