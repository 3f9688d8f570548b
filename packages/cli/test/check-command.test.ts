/**
 * `confbus check` as CI runs it: a real child process on a real Git repository (bare, and a work clone's
 * working tree), its output lines and exit status asserted.
 */
import assert from 'node:assert/strict';
import { symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runConfbusCommand as runConfbus } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';

const SHOP_CONTRACT = JSON.stringify({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    shop: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri' },
        'pool-size': { type: 'integer', minimum: 1 },
      },
      required: ['url'],
    },
  },
  required: ['shop'],
});
const EVERY_CONTRACT = JSON.stringify({
  type: 'object',
  properties: { server: { type: 'object', properties: { port: { type: 'integer', maximum: 65535 } } } },
});

describe('confbus check', () => {
  let remote: GitRemote;
  let good: string;
  let bad: string;
  before(async () => {
    remote = await createGitRemote();
    good = await remote.commit({
      '.confbus/contracts/shop.schema.json': SHOP_CONTRACT,
      '.confbus/contracts/application.schema.json': EVERY_CONTRACT,
      'application.yml': 'server:\n  port: 8080\n',
      'shop.yml': 'shop:\n  url: https://shop.example\n  pool-size: 5\n',
      'shop-prod.properties': 'shop.pool-size=10\n',
      'billing.yml': 'billing.currency: EUR\n',
    });
    bad = await remote.commit({
      'shop-prod.properties': '# fewer connections\nshop.pool-size=0\n',
      'application.yml': 'server:\n  port: 70000\n',
    });
  });
  after(() => remote.remove());

  it('passes a commit that keeps every contract, exit 0 and nothing on standard output', async () => {
    const run = await runConfbus(['check', '--repo', remote.path, '--commit', good]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /3 environment\(s\) of 2 application\(s\), 2 contract\(s\): no violations/);
  });

  it('prints file:line key: message per violation and exits 1', async () => {
    const run = await runConfbus(['check', '--repo', remote.path, '--commit', bad]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(run.stdout.trim().split('\n'), [
      'application.yml:2 server.port: must be <= 65535 (billing/default, shop/default, shop/prod; ' +
        'contract .confbus/contracts/application.schema.json)',
      'shop-prod.properties:2 shop.pool-size: must be >= 1 (shop/prod; contract .confbus/contracts/shop.schema.json)',
    ]);
    assert.match(run.stderr, /4 violation\(s\), 0 error\(s\)/);
  });

  it('checks the tip of a range and lists what the range changes with --impact', async () => {
    const run = await runConfbus(['check', '--repo', remote.path, '--range', `${good}..${bad}`, '--impact']);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(run.stdout.trim().split('\n').slice(0, 4), [
      'files changed: application.yml, shop-prod.properties',
      'billing/default: changed server.port',
      'shop/default: changed server.port',
      'shop/prod: changed server.port, shop.pool-size',
    ]);
    assert.ok(!run.stdout.includes('70000'), 'values are never printed');
  });

  it("names the running instances a change reaches from a server's fleet view, credentials kept out", async () => {
    const instance = (id: string, application: string, profiles: string[]) => ({ id, application, profiles });
    const fleet = [
      instance('shop:prod:8080:a', 'shop', ['prod']),
      instance('shop:prod:8080:b', 'shop', ['prod', 'eu']),
      instance('shop:8080:c', 'shop', []),
      instance('billing:dev:8080:d', 'billing', ['dev']),
    ];
    const asked: string[] = [];
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const authorized =
        request.headers.authorization === `Basic ${Buffer.from('ops:s3cret').toString('base64')}`;
      if (!authorized) return void response.writeHead(401).end();
      response.setHeader('content-type', 'application/json');
      if (url.pathname === '/actuator/contract-gate/published')
        return void response.end(JSON.stringify({ contracts: [] }));
      if (url.pathname !== '/-/console/api/fleet') return void response.writeHead(404).end();
      asked.push(url.searchParams.get('application') ?? '');
      const items = fleet.filter((i) => i.application === url.searchParams.get('application'));
      response.end(JSON.stringify({ items, total: items.length, offset: 0, limit: 500, counts: {} }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const args = ['check', '--repo', remote.path, '--range', `${good}..${bad}`, '--impact'];
    const run = await runConfbus([...args, '--server', `http://ops:s3cret@127.0.0.1:${port}`]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(run.stdout.trim().split('\n').slice(1, 4), [
      'billing/default: changed server.port; reaches 0 running instance(s)',
      'shop/default: changed server.port; reaches 1 running instance(s): shop:8080:c',
      'shop/prod: changed server.port, shop.pool-size; reaches 2 running instance(s): shop:prod:8080:a, shop:prod:8080:b',
    ]);
    assert.deepEqual(asked.sort(), ['billing', 'shop']);

    const refused = await runConfbus([...args, '--server', `http://ops:wrong-s3cret@127.0.0.1:${port}`]);
    assert.equal(refused.code, 1);
    for (const path of ['/actuator/contract-gate/published', '/-/console/api/fleet'])
      assert.match(
        refused.stderr,
        new RegExp(`^error: http://127\\.0\\.0\\.1:${port}: GET ${path} answered 401$`, 'm'),
      );
    assert.match(
      refused.stdout,
      /^shop\/prod: changed server\.port, shop\.pool-size$/m,
      'the impact is still listed',
    );
    for (const output of [run.stdout, run.stderr, refused.stdout, refused.stderr])
      assert.ok(!output.includes('s3cret'));
    assert.equal((await runConfbus(['check', '--repo', remote.path, '--server', 'ftp://x'])).code, 2);
  });

  it("enforces the contracts running services published to a server, beside the repository's", async () => {
    // A running shop version that reads at most 8 connections: the repository's contract allows 10, it does not.
    const published = {
      application: 'shop',
      name: 'published by shop:prod:8080:a',
      schema: {
        type: 'object',
        properties: { shop: { properties: { 'pool-size': { type: 'integer', maximum: 8 } } } },
      },
    };
    const server = createServer((request, response) => {
      if (request.url !== '/actuator/contract-gate/published') return void response.writeHead(404).end();
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ contracts: [published] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const offline = await runConfbus(['check', '--repo', remote.path, '--commit', good]);
    assert.equal(offline.code, 0, offline.stderr);
    const run = await runConfbus([
      'check',
      '--repo',
      remote.path,
      '--commit',
      good,
      '--server',
      `http://127.0.0.1:${port}`,
    ]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(run.stdout.trim().split('\n'), [
      'shop-prod.properties:1 shop.pool-size: must be <= 8 (shop/prod; contract published by shop:prod:8080:a)',
    ]);
    assert.match(run.stderr, /3 contract\(s\)/);
  });

  it('checks the profiles documents activate on, as the server builds them', async () => {
    const profiled = await remote.commit({
      'application.yml':
        'server:\n  port: 8080\n---\nspring.config.activate.on-profile: cloud\nserver.port: 99999\n',
    });
    const run = await runConfbus(['check', '--repo', remote.path, '--commit', profiled]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /^application\.yml:5 server\.port: must be <= 65535 \(billing\/cloud, shop\/cloud; /m,
    );
    assert.match(run.stderr, /5 environment\(s\) of 2 application\(s\)/);
  });

  it("follows the server's search paths, and checks only the applications asked for", async () => {
    const nested = await remote.commit({ 'shop/shop-qa.yml': 'shop:\n  pool-size: -1\n' });
    const args = ['check', '--repo', remote.path, '--commit', nested, '--profiles', 'qa'];
    const flat = await runConfbus([...args, '--applications', 'shop']);
    assert.doesNotMatch(flat.stdout, /shop\/shop-qa\.yml/, 'not searched without search paths');
    const searched = await runConfbus([...args, '--applications', 'shop', '--search-paths', '{application}']);
    assert.match(searched.stdout, /^shop\/shop-qa\.yml:2 shop\.pool-size: must be >= 1 \(shop\/qa; /m);
    assert.match(searched.stderr, /1 environment\(s\) of 1 application\(s\)/);
  });

  it('checks the working tree, uncommitted files included', async () => {
    const work = join(dirname(remote.path), 'work');
    await writeFile(join(work, 'shop-dev.yml'), 'shop:\n  url: not a url\n');
    // A link reads as git stores it (its target's name), never as the file outside the repository it points at.
    await writeFile(join(dirname(remote.path), 'outside.yml'), 'shop:\n  url: not a url either\n');
    await symlink('../outside.yml', join(work, 'shop-eu.yml'));
    const run = await runConfbus(['check'], { cwd: work });
    assert.equal(run.code, 1, run.stderr);
    assert.doesNotMatch(run.stdout, /shop-eu\.yml/);
    assert.match(run.stdout, /^shop-dev\.yml:2 shop\.url: must match format "uri" \(shop\/dev; /m);
    assert.match(run.stderr, /confbus check: working-tree: /);
  });

  it('reports a contract or a file that cannot be read as an error, exit 1', async () => {
    const broken = await remote.commit({
      '.confbus/contracts/billing.schema.json': '{ not json',
      'shop.yml': 'shop: [unclosed\n',
    });
    const run = await runConfbus(['check', '--repo', remote.path, '--commit', broken]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^error: \.confbus\/contracts\/billing\.schema\.json: not JSON/m);
    assert.match(run.stderr, /^error: shop\/default: .*shop\.yml/m);
  });

  it('answers a usage error with exit 2', async () => {
    for (const args of [
      ['--commit', 'HEAD', '--range', 'a..b'],
      ['--range', 'only-one'],
      ['--range', 'a...b'],
      ['--bogus'],
      ['--impact'],
      ['stray'],
    ]) {
      const run = await runConfbus(['check', '--repo', remote.path, ...args]);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /^confbus: /);
    }
    const missing = await runConfbus(['check', '--repo', remote.path, '--commit', 'no-such-branch']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No such label: no-such-branch/);
  });
});
