// The console's download names its file as RFC 6266 / 5987 say, for every name the server accepts: letters of
// any script, combining marks, a nested application (`team(_)orders`). The header carries the name encoded
// (filename*=UTF-8''…) with an ASCII fallback, never raw bytes that Node refuses (a 500) or that clients misread.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import contentDisposition from 'content-disposition';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { attachment } from '../../src/console/environment-routes.js';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

describe('console download: file names', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'entwicklung-ü.yml': 'greeting: grüß dich\n',
      '日本.yml': 'greeting: こんにちは\n',
      'team/orders.yml': 'greeting: nested\n',
    });
    server = await startGitTestServer({ 'spring.cloud.config.server.git.uri': remote.url });
  });
  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  for (const [application, profiles, file, fallback] of [
    ['entwicklung-ü', 'dev', 'entwicklung-ü-dev.yml', 'entwicklung-_-dev.yml'],
    ['日本', 'default', '日本-default.yml', '__-default.yml'],
    ['cafe\u0301', 'eu,dev', 'cafe\u0301-eu_dev.yml', 'cafe_-eu_dev.yml'],
    ['app+v2@team', 'dev', 'app+v2@team-dev.yml', 'app+v2@team-dev.yml'],
    ['team(_)orders', 'dev', 'team_orders-dev.yml', 'team_orders-dev.yml'],
  ] as const) {
    it(`${application} (${profiles}): 200, named ${file} with an ASCII fallback`, async () => {
      const query = new URLSearchParams({ application, profiles, format: 'yml' });
      const response = await server.get(`/-/console/api/environment/download?${query}`);
      assert.equal(response.status, 200, response.body);
      const header = response.headers.get('content-disposition') ?? '';
      assert.match(header, /^attachment; filename="[\x20-\x7e]+"/);
      assert.ok(header.includes(`filename="${fallback}"`), header);
      assert.equal(contentDisposition.parse(header).parameters.filename, file);
    });
  }

  it('encodes quotes, spaces, backslashes, percent signs and slashes too (any name, not only valid ones)', () => {
    for (const [name, fallback] of [
      ['a "quoted" name.yml', 'a _quoted_ name.yml'],
      ['back\\slash 100%.yml', 'back_slash 100_.yml'],
      ['dir/file ü.yml', 'dir_file _.yml'],
    ] as const) {
      const header = attachment(name);
      assert.match(header, /^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[\x21-\x7e]+$/, header);
      assert.ok(header.includes(`filename="${fallback}"`), header);
      assert.equal(contentDisposition.parse(header).parameters.filename, name.replace(/[/\\]/g, '_'));
    }
    assert.equal(attachment('sample-dev.yml'), 'attachment; filename="sample-dev.yml"');
  });
});
