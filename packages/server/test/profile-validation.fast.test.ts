/**
 * Requested profiles are checked as Spring Cloud Config 5.0.3+ checks them (PathUtils.isInvalidProfiles: letters,
 * digits and `-_.+@`, starting and ending with a letter or digit, the list split as sent so `dev,,db` has an
 * empty profile), on the environment, file and encryption endpoints alike; `spring.profiles.validate=false`
 * (spring-cloud-config#3227) lifts those rules, but never the ones that keep a profile out of paths.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer, startTestServer } from './server-harness.js';

const KEY = 'encrypt.key';

/** The status of `POST /encrypt/foo/{profiles}`. */
async function encrypt(server: TestServer, profiles: string): Promise<number> {
  const response = await fetch(`${server.base}/encrypt/foo/${profiles}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'x',
  });
  await response.arrayBuffer();
  return response.status;
}

describe('profile validation', () => {
  let files: Record<string, string>;
  let strict: TestServer;
  let relaxed: TestServer;

  before(async () => {
    files = { 'foo.yml': 'a: 1\n', 'foo-dev.yml': 'b: 2\n' };
    const common = { [KEY]: 'secret' };
    [strict, relaxed] = await Promise.all([
      startTestServer(common, { files }),
      startTestServer({ ...common, 'spring.profiles.validate': 'false' }, { files }),
    ]);
  });

  after(async () => {
    await strict?.stop();
    await relaxed?.stop();
  });

  const sentAsIs = ['dev,,mysql', 'dev,', 'dev,%20mysql', '-dev', 'dev.', 'dev!', 'de%20v'];

  it("refuses what Spring's rules refuse, naming the profile", async () => {
    for (const profiles of sentAsIs) {
      const response = await strict.get(`/foo/${profiles}`);
      assert.equal(response.status, 400, profiles);
      assert.equal((response.json() as { code: string }).code, 'CONFBUS_INVALID_PROFILE', profiles);
      assert.equal((await strict.get(`/foo-${profiles}.yml`)).status, 400, `${profiles}.yml`);
      assert.equal(await encrypt(strict, profiles), 400, `/encrypt ${profiles}`);
    }
    const empty = (await strict.get('/foo/dev,,mysql')).json() as { message: string };
    assert.match(empty.message, /must not be empty \(in "dev,,mysql"\)/);
    assert.deepEqual(((await strict.get('/foo/dev,mysql')).json() as { profiles: string[] }).profiles, [
      'dev,mysql',
    ]);
  });

  it('accepts them with spring.profiles.validate=false, blanks dropped', async () => {
    for (const profiles of sentAsIs) {
      assert.equal((await relaxed.get(`/foo/${profiles}`)).status, 200, profiles);
      assert.equal(await encrypt(relaxed, profiles), 200, `/encrypt ${profiles}`);
    }
    const env = (await relaxed.get('/foo/dev,,mysql')).json() as { propertySources: { name: string }[] };
    assert.equal(env.propertySources.length, 2, 'foo-dev.yml and foo.yml');
  });

  it('never lets a profile reach a path, whatever the setting', async () => {
    for (const server of [strict, relaxed]) {
      for (const profiles of ['a..b', 'dev,..', 'a(_)b', 'a%5Cb', 'a%01b']) {
        assert.equal((await server.get(`/foo/${profiles}`)).status, 400, profiles);
      }
    }
  });
});
