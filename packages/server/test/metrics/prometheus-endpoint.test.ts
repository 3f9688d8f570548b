// GET /actuator/prometheus on two servers in one process: private registries, request counts by route
// pattern, environment builds and the git mirror's upstream checks and fetches.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { metricSample as sample } from '@confbus/testkit/prometheus-text';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

describe('prometheus endpoint', () => {
  let remote: GitRemote;
  let first: TestServer;
  let second: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'a: 1\n' });
    const settings = { 'spring.cloud.config.server.git.uri': remote.url };
    [first, second] = await Promise.all([startGitTestServer(settings), startGitTestServer(settings)]);
  });
  after(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await remote?.remove();
  });

  it('serves the text exposition format with counts private to each server', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await first.get('/foo/dev')).status, 200);
    assert.equal((await first.get('/foo/dev/no-such-label')).status, 404);
    assert.equal((await first.get('/bar/dev')).status, 200);
    await remote.commit({ 'foo.yml': 'a: 2\n' });
    assert.equal((await first.get('/foo/dev')).status, 200);

    const response = await first.get('/actuator/prometheus');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = response.body;
    assert.equal(
      sample(text, 'confbus_http_requests_total{method="GET",route="/:name/:profiles",status="200"}'),
      5,
    );
    assert.equal(
      sample(text, 'confbus_http_requests_total{method="GET",route="/:name/:profiles/*",status="404"}'),
      1,
    );
    assert.match(text, /# TYPE confbus_http_request_duration_seconds histogram/);
    // Two commits seen, two (application, profiles) keys: foo/dev twice and bar/dev once.
    assert.equal(sample(text, 'confbus_environment_builds_total'), 3);
    assert.equal(sample(text, 'confbus_environment_cache_hits_total'), 2);
    assert.equal(sample(text, 'confbus_environment_cache_misses_total'), 3);
    assert.ok((sample(text, 'confbus_git_upstream_checks_total') ?? 0) >= 6);
    assert.equal(sample(text, 'confbus_git_upstream_fetches_total'), 2);
    assert.equal(sample(text, 'confbus_git_stale'), 0);
    assert.ok((sample(text, 'confbus_git_last_success_timestamp_seconds') ?? 0) > 1.6e9);
    // The raw URL never becomes a label (cardinality).
    assert.ok(!text.includes('no-such-label'));

    const other = (await second.get('/actuator/prometheus')).body;
    assert.equal(sample(other, 'confbus_environment_builds_total'), 0);
    assert.equal(
      sample(other, 'confbus_http_requests_total{method="GET",route="/:name/:profiles",status="200"}'),
      undefined,
    );
  });

  it('counts unmatched routes under one label and keeps counters monotonic across scrapes', async () => {
    await second.get('/a/b/c/d/e');
    await second.get('/x');
    await fetch(`${second.base}/anything`, { method: 'DELETE' });
    const text = (await second.get('/actuator/prometheus')).body;
    assert.equal(
      sample(text, 'confbus_http_requests_total{method="DELETE",route="unmatched",status="404"}'),
      1,
    );
    const before = sample(text, 'confbus_git_upstream_checks_total') ?? 0;
    await second.get('/foo/default');
    const after =
      sample((await second.get('/actuator/prometheus')).body, 'confbus_git_upstream_checks_total') ?? 0;
    assert.ok(after > before, `${after} > ${before}`);
  });
});
