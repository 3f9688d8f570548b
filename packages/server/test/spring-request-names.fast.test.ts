/** Names Spring answers 200 for: an application path written with (_), profiles in any script. Real git. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer, startTestServer } from './server-harness.js';

/** The uri the fake repository reports (its property sources are named after it). */
const FAKE_URI = 'fake://config';

interface EnvironmentJson {
  name: string;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('request names as Spring accepts them', () => {
  let files: Record<string, string>;
  let server: TestServer;

  before(async () => {
    files = {
      'foo/spam.yml': 'where: foo/spam\n',
      'foo/spam-dev.yml': 'where: foo/spam-dev\n',
      'app-entwicklung-ü.yml': 'where: ü\n',
      'app.yml': 'where: app\n',
    };
    server = await startTestServer({ 'spring.cloud.config.server.git.uri': FAKE_URI }, { files });
  });
  after(async () => {
    await server?.stop();
  });

  it('reads foo/spam*.yml for the application foo(_)spam', async () => {
    const response = await server.get('/foo(_)spam/dev');
    assert.equal(response.status, 200, response.body);
    const env = response.json() as EnvironmentJson;
    assert.deepEqual(
      env.propertySources.map((source) => source.source.where),
      ['foo/spam-dev', 'foo/spam'],
    );
    const yml = await server.get('/foo(_)spam-dev.yml');
    assert.equal(yml.status, 200, yml.body);
    assert.match(yml.body, /where: foo\/spam-dev/);
    const climbing = await server.get('/foo(_)..(_)x/dev');
    assert.equal(climbing.status, 400);
  });

  it('serves a profile written in another script', async () => {
    const response = await server.get(`/app/${encodeURIComponent('entwicklung-ü')}`);
    assert.equal(response.status, 200, response.body);
    const env = response.json() as EnvironmentJson;
    assert.equal(env.propertySources[0]?.source.where, 'ü');
  });
});
