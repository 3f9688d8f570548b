import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfigFile } from '@confbus/core';
import { type Contract, checkTargets, profilesActivating } from '../src/index.js';

const contract = (application: string): Contract => ({ application, name: application, schema: {} });
const FILES = [
  'application.yml',
  'application-prod.yml',
  'shop.yml',
  'shop-dev.properties',
  'my-app-dev.yml',
  'billing.yaml',
  'sub/billing-eu.yml',
  '.confbus/contracts/shop.schema.json',
  'README.md',
];
const show = (targets: ReturnType<typeof checkTargets>) =>
  targets.map((t) => `${t.application}/${t.profiles.join(',')}`);

describe('checkTargets', () => {
  it('checks the applications with a contract, in default and each profile their files name', () => {
    assert.deepEqual(show(checkTargets(FILES, [contract('shop'), contract('my-app')])), [
      'my-app/default',
      'my-app/dev',
      'my-app/prod',
      'shop/default',
      'shop/dev',
      'shop/prod',
    ]);
  });

  it('checks every application with a file when application.schema.json exists', () => {
    assert.deepEqual(show(checkTargets(FILES, [contract('application')])), [
      'billing/default',
      'billing/eu',
      'billing/prod',
      'my-app-dev/default',
      'my-app-dev/prod',
      'shop/default',
      'shop/dev',
      'shop/prod',
    ]);
  });

  it('takes the profiles and applications given instead', () => {
    assert.deepEqual(
      show(checkTargets(FILES, [contract('application')], { profiles: ['qa'], applications: ['shop'] })),
      ['shop/qa'],
    );
  });

  it("adds the profiles a file's documents activate on: an application file's for all, another's for its own", () => {
    const documentProfiles = new Map([
      ['application.yml', ['cloud']],
      ['shop.yml', ['eu', 'default']],
    ]);
    assert.deepEqual(show(checkTargets(FILES, [contract('shop')], { documentProfiles })), [
      'shop/default',
      'shop/cloud',
      'shop/dev',
      'shop/eu',
      'shop/prod',
    ]);
  });

  it('names the profiles an activation names positively', () => {
    const activation = parseConfigFile(
      'a.yml',
      'spring.config.activate.on-profile: "prod & (eu | us), !dev"\na: 1\n',
    )[0]?.activation;
    assert.ok(activation);
    assert.deepEqual(profilesActivating(activation).sort(), ['eu', 'prod', 'us']);
  });

  it('checks nothing without contracts', () => {
    assert.deepEqual(checkTargets(FILES, []), []);
  });
});
