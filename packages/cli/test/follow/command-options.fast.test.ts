/** The run/render command lines: options told apart from settings, bad ones named in a usage error. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientSettingSpecs } from '@confbus/client';
import { UsageError } from '../../src/command-line.js';
import { parseDuration, parseSettingArgs, splitCommandLine } from '../../src/follow/command-options.js';
import { readRenderOptions, renderOptionSpecs } from '../../src/render/render-options.js';
import { readRunOptions, runOptionSpecs } from '../../src/run/run-options.js';

function usageError(pattern: RegExp): (error: unknown) => boolean {
  return (error) => error instanceof UsageError && pattern.test(error.message);
}

describe('splitCommandLine', () => {
  it('separates options (both spellings), settings and the command after --', () => {
    const split = splitCommandLine(
      [
        '--spring.application.name=app',
        '--on-change',
        'signal:HUP',
        '--env-override',
        '--',
        'python3',
        '--on-change',
      ],
      runOptionSpecs,
    );
    assert.deepEqual(split.options, { 'on-change': 'signal:HUP', 'env-override': true });
    assert.deepEqual(split.rest, ['--spring.application.name=app']);
    assert.deepEqual(split.afterDashes, ['python3', '--on-change']);
  });

  it('names an option given without its value', () => {
    assert.throws(() => splitCommandLine(['--template'], renderOptionSpecs), usageError(/--template/));
    assert.throws(
      () => splitCommandLine(['--template', '--out=x'], renderOptionSpecs),
      usageError(/option '--template' needs a value/),
    );
  });
});

describe('parseSettingArgs', () => {
  it('suggests the option a mistyped name was meant to be', () => {
    assert.throws(
      () => parseSettingArgs('run', ['--on-chnage=none'], clientSettingSpecs, runOptionSpecs),
      usageError(/unknown option '--on-chnage' for confbus run\. Did you mean '--on-change'\?/),
    );
  });

  it('passes the client settings through', () => {
    const line = parseSettingArgs(
      'run',
      ['--spring.profiles.active=dev'],
      clientSettingSpecs,
      runOptionSpecs,
    );
    assert.deepEqual(line.settingArgs, ['--spring.profiles.active=dev']);
  });
});

describe('readRunOptions', () => {
  it('has defaults: restart, 10 s grace, 500 ms debounce, inherited variables win', () => {
    assert.deepEqual(readRunOptions({}), {
      onChange: { kind: 'restart' },
      graceMs: 10_000,
      debounceMs: 500,
      environment: { prefix: '', include: [], override: false },
    });
  });

  it('reads signal:NAME in any spelling and refuses what is no signal', () => {
    assert.deepEqual(readRunOptions({ 'on-change': 'signal:hup' }).onChange, {
      kind: 'signal',
      signal: 'SIGHUP',
    });
    assert.deepEqual(readRunOptions({ 'on-change': 'signal:SIGUSR2' }).onChange, {
      kind: 'signal',
      signal: 'SIGUSR2',
    });
    assert.throws(
      () => readRunOptions({ 'on-change': 'signal:NOPE' }),
      usageError(/'--on-change'.*signal:NOPE/),
    );
    assert.throws(() => readRunOptions({ 'on-change': 'signal:KILL' }), usageError(/'--on-change'/));
    assert.throws(() => readRunOptions({ 'on-change': 'reload' }), usageError(/'--on-change'/));
  });

  it('names a bad duration, prefix or list', () => {
    assert.throws(() => readRunOptions({ 'grace-period': 'soon' }), usageError(/'--grace-period'.*'soon'/));
    assert.throws(() => readRunOptions({ 'env-prefix': 'APP-' }), usageError(/'--env-prefix'/));
    assert.deepEqual(readRunOptions({ 'env-include': ' a, b.c ,' }).environment.include, ['a', 'b.c']);
  });
});

describe('readRenderOptions', () => {
  it('needs --template and --out, and reads --mode in octal', () => {
    assert.throws(() => readRenderOptions({ out: 'x' }, '/tmp'), usageError(/--template/));
    assert.throws(() => readRenderOptions({ template: 'x' }, '/tmp'), usageError(/--out/));
    assert.throws(
      () => readRenderOptions({ template: 't', out: 'o', mode: '999' }, '/tmp'),
      usageError(/--mode/),
    );
    const options = readRenderOptions({ template: 't', out: 'o', mode: '0644' }, '/tmp');
    assert.equal(options.template, '/tmp/t');
    assert.equal(options.mode, 0o644);
  });
});

describe('parseDuration', () => {
  it('reads ms, s, m and plain milliseconds', () => {
    assert.equal(parseDuration('x', '250'), 250);
    assert.equal(parseDuration('x', '250ms'), 250);
    assert.equal(parseDuration('x', '1.5s'), 1500);
    assert.equal(parseDuration('x', '2m'), 120_000);
  });
});
