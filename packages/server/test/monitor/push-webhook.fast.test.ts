import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { parsePushWebhook, verifyWebhookSignature, WebhookError } from '../../src/monitor/index.js';
import { pushedCommit } from '../../src/monitor/push-webhook.js';

const JSON_TYPE = 'application/json';
const commits = [
  { added: ['foo.yml'], removed: [], modified: ['bar-dev.properties'] },
  { added: [], removed: ['baz.yml'], modified: ['foo.yml'] },
];

function expectWebhookError(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof WebhookError);
    assert.equal(err.status, 400);
    assert.equal(err.code, 'CONFBUS_BAD_WEBHOOK');
    assert.match(err.message, message);
    return true;
  });
}

describe('parsePushWebhook', () => {
  it('reads commit file lists from GitHub, GitLab, Gogs and Gitee pushes', () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'x-github-event': 'push' }, 'github'],
      [{ 'X-Gitlab-Event': 'Push Hook' }, 'gitlab'],
      [{ 'X-Gogs-Event': 'push' }, 'gogs'],
      [{ 'x-git-oschina-event': 'Push Hook' }, 'gitee'],
    ];
    for (const [headers, host] of cases) {
      assert.deepEqual(parsePushWebhook({ headers, body: { commits }, contentType: JSON_TYPE }), {
        host,
        paths: ['foo.yml', 'bar-dev.properties', 'baz.yml'],
      });
    }
  });

  it('broadcasts (application.yml) for Gitea and Bitbucket Cloud/Server, which do not list files', () => {
    const broadcast = ['application.yml'];
    assert.deepEqual(
      parsePushWebhook({ headers: { 'X-Gitea-Event': 'push' }, body: { commits }, contentType: JSON_TYPE }),
      { host: 'gitea', paths: broadcast },
    );
    for (const event of ['repo:push', 'pullrequest:fulfilled']) {
      assert.deepEqual(
        parsePushWebhook({
          headers: { 'X-Event-Key': event, 'X-Hook-UUID': 'f8a1' },
          body: { push: { changes: [] } },
          contentType: JSON_TYPE,
        }),
        { host: 'bitbucket-cloud', paths: broadcast },
      );
    }
    assert.deepEqual(
      parsePushWebhook({
        headers: { 'x-event-key': 'repo:refs_changed', 'x-request-id': 'r1' },
        body: { changes: [{ ref: { id: 'refs/heads/main' } }] },
        contentType: JSON_TYPE,
      }),
      { host: 'bitbucket-server', paths: broadcast },
    );
    assert.deepEqual(
      parsePushWebhook({
        headers: { 'x-event-key': 'pr:merged', 'x-request-id': 'r2' },
        body: {},
        contentType: JSON_TYPE,
      }),
      { host: 'bitbucket-server', paths: broadcast },
    );
  });

  it('takes {"path": ...} bodies and path= forms', () => {
    assert.deepEqual(parsePushWebhook({ headers: {}, body: { path: 'foo.yml' }, contentType: JSON_TYPE }), {
      host: 'simple',
      paths: ['foo.yml'],
    });
    assert.deepEqual(
      parsePushWebhook({ headers: {}, body: { path: ['a.yml', 'b.yml', 'a.yml'] }, contentType: JSON_TYPE }),
      { host: 'simple', paths: ['a.yml', 'b.yml'] },
    );
    assert.deepEqual(
      parsePushWebhook({
        headers: {},
        body: { path: ['/repo/foo-dev.yml', 'application.yml'] },
        contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
      }),
      { host: 'form', paths: ['/repo/foo-dev.yml', 'application.yml'] },
    );
  });

  it('follows Spring’s order: GitHub before the simple path, and moves on when a push names no files', () => {
    assert.equal(
      parsePushWebhook({
        headers: { 'X-Github-Event': 'push' },
        body: { commits, path: 'x.yml' },
        contentType: JSON_TYPE,
      }).host,
      'github',
    );
    assert.deepEqual(
      parsePushWebhook({
        headers: { 'X-Github-Event': 'push' },
        body: { commits: [], path: 'x.yml' },
        contentType: JSON_TYPE,
      }),
      { host: 'simple', paths: ['x.yml'] },
    );
    assert.deepEqual(
      parsePushWebhook({
        headers: { 'X-Github-Event': 'push' },
        body: { commits: [] },
        contentType: JSON_TYPE,
      }),
      { host: 'github', paths: [] },
    );
  });

  it('answers host none and no paths when no extractor matches', () => {
    for (const headers of [
      {},
      { 'X-Github-Event': 'ping' },
      { 'X-Event-Key': 'repo:push' }, // Bitbucket Cloud without X-Hook-UUID
      { 'X-Event-Key': 'repo:refs_changed' }, // Bitbucket Server without X-Request-Id
    ]) {
      assert.deepEqual(parsePushWebhook({ headers, body: { zen: 'hi' }, contentType: JSON_TYPE }), {
        host: 'none',
        paths: [],
      });
    }
  });

  it('rejects malformed bodies with a 400 naming what is missing', () => {
    const gh = { 'X-Github-Event': ['push'] };
    expectWebhookError(
      () => parsePushWebhook({ headers: {}, body: undefined, contentType: JSON_TYPE }),
      /missing/,
    );
    expectWebhookError(
      () => parsePushWebhook({ headers: {}, body: [1], contentType: JSON_TYPE }),
      /JSON object/,
    );
    expectWebhookError(
      () => parsePushWebhook({ headers: gh, body: {}, contentType: JSON_TYPE }),
      /"commits" list/,
    );
    expectWebhookError(
      () =>
        parsePushWebhook({ headers: gh, body: { commits: [{ added: 'foo.yml' }] }, contentType: JSON_TYPE }),
      /commits\[0\]\.added must be a list/,
    );
    expectWebhookError(
      () =>
        parsePushWebhook({
          headers: { 'X-Event-Key': 'repo:push', 'X-Hook-UUID': 'u' },
          body: { push: {} },
          contentType: JSON_TYPE,
        }),
      /push\.changes/,
    );
    expectWebhookError(
      () =>
        parsePushWebhook({
          headers: { 'X-Event-Key': 'repo:refs_changed', 'X-Request-Id': 'r' },
          body: {},
          contentType: JSON_TYPE,
        }),
      /"changes" list/,
    );
    expectWebhookError(
      () => parsePushWebhook({ headers: {}, body: {}, contentType: 'application/x-www-form-urlencoded' }),
      /no "path" parameter/,
    );
    expectWebhookError(
      () => parsePushWebhook({ headers: {}, body: { path: 3 }, contentType: JSON_TYPE }),
      /"path" must be a string/,
    );
  });
});

describe('verifyWebhookSignature', () => {
  const rawBody = Buffer.from('{"commits":[]}');
  const secret = 'It5-a-s3cret';
  const hex = createHmac('sha256', secret).update(rawBody).digest('hex');
  const wrongHex = createHmac('sha256', 'other').update(rawBody).digest('hex');

  const hmacHosts = [
    ['github', 'github', 'X-Hub-Signature-256', 'sha256='],
    ['gitea', 'gitea', 'X-Gitea-Signature', ''],
    ['gogs', 'gogs', 'X-Gogs-Signature', ''],
    ['bitbucket-cloud', 'bitbucket', 'X-Hub-Signature', 'sha256='],
    ['bitbucket-server', 'bitbucket', 'X-Hub-Signature', 'sha256='],
  ] as const;

  for (const [host, key, header, prefix] of hmacHosts) {
    it(`checks ${host}'s ${header}: good, bad, missing, no secret`, () => {
      const secrets = { [key]: secret };
      const check = (headers: Record<string, string>) =>
        verifyWebhookSignature({ host, headers, rawBody, secrets });
      assert.deepEqual(check({ [header]: prefix + hex }), { ok: true });
      assert.deepEqual(check({ [header.toLowerCase()]: prefix + hex.toUpperCase() }), { ok: true });
      const bad = check({ [header]: prefix + wrongHex });
      assert.ok(!bad.ok && bad.reason.includes('does not match'));
      const missing = check({});
      assert.ok(!missing.ok && missing.reason === `missing ${header} header`);
      if (prefix) assert.ok(!check({ [header]: hex }).ok, 'the sha256= prefix is required');
      assert.deepEqual(verifyWebhookSignature({ host, headers: {}, rawBody, secrets: {} }), { ok: true });
    });
  }

  it('checks the GitLab token in constant time', () => {
    const secrets = { gitlab: secret };
    const check = (headers: Record<string, string>) =>
      verifyWebhookSignature({ host: 'gitlab', headers, rawBody, secrets });
    assert.deepEqual(check({ 'X-Gitlab-Token': secret }), { ok: true });
    assert.ok(!check({ 'X-Gitlab-Token': `${secret}x` }).ok);
    assert.deepEqual(check({}), { ok: false, reason: 'missing X-Gitlab-Token header' });
  });

  it('checks Gitee tokens in password and signature mode', () => {
    const secrets = { gitee: secret };
    const now = 1_700_000_000_000;
    const check = (headers: Record<string, string>) =>
      verifyWebhookSignature({ host: 'gitee', headers, rawBody, secrets, now });
    assert.deepEqual(check({ 'X-Gitee-Token': secret }), { ok: true });
    assert.ok(!check({ 'X-Gitee-Token': 'nope' }).ok);
    const ts = String(now - 60_000);
    const sign = createHmac('sha256', secret).update(`${ts}\n${secret}`).digest('base64');
    assert.deepEqual(check({ 'X-Gitee-Token': sign, 'X-Gitee-Timestamp': ts }), { ok: true });
    assert.ok(!check({ 'X-Gitee-Token': secret, 'X-Gitee-Timestamp': ts }).ok);
    const old = String(now - 2 * 3_600_000);
    const oldSign = createHmac('sha256', secret).update(`${old}\n${secret}`).digest('base64');
    const stale = check({ 'X-Gitee-Token': oldSign, 'X-Gitee-Timestamp': old });
    assert.ok(!stale.ok && /an hour/.test(stale.reason));
    assert.deepEqual(check({}), { ok: false, reason: 'missing X-Gitee-Token header' });
  });

  it('accepts form, simple and unrecognised requests, which carry no host signature', () => {
    const secrets = { github: secret, gitlab: secret };
    for (const host of ['form', 'simple', 'none'] as const) {
      assert.deepEqual(verifyWebhookSignature({ host, headers: {}, rawBody, secrets }), { ok: true });
    }
  });
});

describe('pushedCommit', () => {
  const a = 'a'.repeat(40);
  const b = 'B'.repeat(64);
  it("reads `after` (GitHub, GitLab, Gitea, Gogs, Gitee) and Bitbucket's last change", () => {
    assert.equal(pushedCommit({ after: a }), a);
    assert.equal(pushedCommit({ after: b }), b.toLowerCase());
    const cloud = {
      push: { changes: [{ new: { target: { hash: 'c'.repeat(40) } } }, { new: { target: { hash: a } } }] },
    };
    assert.equal(pushedCommit(cloud), a);
    assert.equal(pushedCommit({ changes: [{ toHash: a }] }), a);
  });
  it('ignores deletions, abbreviations, other shapes and payloads without one', () => {
    for (const body of [
      { after: '0'.repeat(40) },
      { after: 'abc1234' },
      { after: 42 },
      { path: 'x' },
      null,
      [],
    ]) {
      assert.equal(pushedCommit(body), undefined, JSON.stringify(body));
    }
    assert.equal(pushedCommit({ push: { changes: [{ new: null }] } }), undefined);
  });
});
