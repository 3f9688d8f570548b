// confbus.server.rollouts.auto.<name>.*: rules read from arguments and files, defaults filled in, and a wrong
// value refused at start naming its key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SettingsError } from '@confbus/core';
import { resolveServerSettings } from '../../src/index.js';
import { readRolloutSettings } from '../../src/rollouts/rollout-settings.js';

const rulesOf = (args: string[], file?: string) =>
  readRolloutSettings(
    resolveServerSettings({
      args,
      env: {},
      ...(file ? { file: { path: 'application.yml', text: file } } : {}),
    }),
  ).auto;

describe('rollouts on push: settings', () => {
  it('reads rules with their defaults: every changed application, the default waves and bake', () => {
    assert.deepEqual(rulesOf([]), []);
    assert.deepEqual(rulesOf(['--confbus.server.rollouts.auto.main.branch=main']), [
      {
        name: 'main',
        branch: 'main',
        applications: undefined,
        waves: [{ instances: 1 }, { percent: 5 }, { percent: 25 }, { percent: 100 }],
        bakeMs: 300_000,
      },
    ]);
    const yaml =
      'confbus.server.rollouts.auto:\n  prod:\n    branch: release\n    applications: [orders, billing]\n' +
      '    waves: 1,25%,100%\n    bake: 2m\n';
    assert.deepEqual(rulesOf([], yaml), [
      {
        name: 'prod',
        branch: 'release',
        applications: ['orders', 'billing'],
        waves: [{ instances: 1 }, { percent: 25 }, { percent: 100 }],
        bakeMs: 120_000,
      },
    ]);
  });

  it('refuses a rule without a branch, a wrong property, waves or bake, naming the key', () => {
    const refused = (args: string[], key: RegExp) =>
      assert.throws(
        () => rulesOf(args),
        (error: unknown) => error instanceof SettingsError && key.test(error.message),
      );
    refused(['--confbus.server.rollouts.auto.main.waves=1,100%'], /auto\.main\.branch'/);
    refused(['--confbus.server.rollouts.auto.main.brnach=main'], /auto\.main\.brnach'/);
    refused(
      ['--confbus.server.rollouts.auto.main.branch=main', '--confbus.server.rollouts.auto.main.waves=1,lots'],
      /auto\.main\.waves'.*"lots"/,
    );
    refused(
      ['--confbus.server.rollouts.auto.main.branch=main', '--confbus.server.rollouts.auto.main.bake=soon'],
      /auto\.main\.bake'.*'soon'/,
    );
    refused(
      ['--confbus.server.rollouts.auto.a.branch=main', '--confbus.server.rollouts.auto.b.branch=main'],
      /auto\.b\.branch'.*already has a rule/,
    );
  });
});
