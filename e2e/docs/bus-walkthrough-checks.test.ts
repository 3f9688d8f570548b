// The checks readme-fresh-clone.test.ts applies to each run of the README's "Try the bus" block, fed terminal
// output shaped as a run writes it (pino lines, curl bodies without newlines running into them). They must pass
// a good run and fail the two it once let through: /static showing the local fallback's nulls next to a correct
// /dynamic, and "both clients refreshed" when only one did.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type WalkthroughRound, checkWalkthroughRound } from '../support/bus-walkthrough.js';
import { concatenatedJson, splitTranscript } from '../support/terminal-transcript.js';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
const round: WalkthroughRound = {
  startupComment: 'development settings for sample',
  changedComment: 'changed at 08:37:03',
  commit: NEW,
  sampleRepository: '/tmp/clone/.confbus/sample-config-repo',
};
const SERVER = 100;
const DEV = 101; // the client on 8081
const REAL = 102; // the client on 8082

function log(pid: number, msg: string, fields: Record<string, unknown> = {}): string {
  const name = pid === SERVER ? 'confbus-server' : 'confbus-client';
  return `${JSON.stringify({ level: 30, time: '2026-11-26T08:37:03.564Z', pid, hostname: 'vm', name, ...fields, msg })}\n`;
}

function refreshed(pid: number, keys: string, from = OLD): string {
  return log(pid, `Keys refreshed [${keys}]`, { trigger: 'bus', version: NEW, previousVersion: from });
}

const events = JSON.stringify([
  { id: '1', destination: 'sample:**', commit: NEW, ackCount: 0, acks: [] },
  { id: '2', destination: 'sample-dev:**', commit: NEW, ackCount: 0, acks: [] },
]);

/** A run's standard output; `parts` replace the defaults (the clients' refresh lines, /static's answer). */
function transcript(parts: { refreshes?: string; atStartup?: string } = {}): string {
  return [
    log(SERVER, 'Config server listening on http://127.0.0.1:8888', { uri: round.sampleRepository }),
    log(DEV, 'Listening on http://127.0.0.1:8081'),
    log(REAL, 'Listening on http://127.0.0.1:8082'),
    parts.refreshes ??
      refreshed(DEV, 'config.client.version, group.comment') + refreshed(REAL, 'config.client.version'),
    '{"profile":"dev","comment":"changed at 08:37:03"}',
    parts.atStartup ?? '{"profile":"dev","comment":"development settings for sample"}',
    log(SERVER, 'Refresh for: sample-dev'),
    '["sample-dev","sample"]', // runs into the next log line, as curl output does
    refreshed(REAL, '', NEW),
    events,
  ].join('');
}

describe("the README walkthrough's checks", () => {
  it('pass a run that did what the README says', () => {
    checkWalkthroughRound(transcript(), round);
  });

  it('fail when /static shows the local fallback (the clients started before the server)', () => {
    assert.throws(
      () => checkWalkthroughRound(transcript({ atStartup: '{"profile":null,"comment":null}' }), round),
      /\/static: the startup value/,
    );
  });

  it('fail when /static shows the refreshed value', () => {
    assert.throws(
      () =>
        checkWalkthroughRound(
          transcript({ atStartup: '{"profile":"dev","comment":"changed at 08:37:03"}' }),
          round,
        ),
      /\/static: the startup value/,
    );
  });

  it('fail when only one client refreshed, however many refresh lines there are', () => {
    const onlyDev =
      refreshed(DEV, 'config.client.version, group.comment') +
      refreshed(DEV, '', NEW) +
      refreshed(DEV, '', NEW);
    assert.throws(
      () => checkWalkthroughRound(transcript({ refreshes: onlyDev }), round),
      /the client on port 8082 logged "Keys refreshed/,
    );
  });

  it('fail when a client logged a refresh that did not move it to the new commit', () => {
    const realStayed = refreshed(DEV, 'config.client.version, group.comment') + refreshed(REAL, '', NEW);
    assert.throws(() => checkWalkthroughRound(transcript({ refreshes: realStayed }), round), /port 8082/);
  });

  it('separate the curl answers from the log lines they run into', () => {
    const { logs, printed } = splitTranscript(transcript());
    assert.equal(logs.length, 7);
    assert.equal(concatenatedJson(printed).length, 4);
    assert.throws(() => concatenatedJson('{"a":1}oops'), /not JSON at offset 7/);
  });
});
