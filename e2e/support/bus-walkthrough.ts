/**
 * What one run of the README's "Try the bus" block must show, checked from its standard output: each answer the
 * block's curls print, in order and exactly, and the log lines that prove each client took part. Exact on
 * purpose: the race the README once had (clients started before the server, fell back to local settings, and
 * `/static` showed nulls while `/dynamic` looked right) must fail here, and so must a refresh that reached one
 * client only.
 */
import assert from 'node:assert/strict';
import { type LogLine, concatenatedJson, splitTranscript } from './terminal-transcript.js';

export interface WalkthroughRound {
  /** `group.comment` of sample-dev.yml when the round started: what `/static` keeps. */
  readonly startupComment: string;
  /** `group.comment` after the round's edit: what `/dynamic` shows after the refresh. */
  readonly changedComment: string;
  /** The sample repository's commit after the round's edit. */
  readonly commit: string;
  /** The sample repository's path, as the server logs it. */
  readonly sampleRepository: string;
}

/** The clients the block starts: their port, and a key each one's refresh must list. */
const CLIENTS = [
  { port: 8081, changedKey: 'group.comment' }, // profile dev: sample-dev.yml changed
  { port: 8082, changedKey: 'config.client.version' }, // profile real: only the commit moved
];

export function checkWalkthroughRound(stdout: string, round: WalkthroughRound): void {
  const { logs, printed } = splitTranscript(stdout);
  // busrefresh answers 204 without a body; the other four curls print one JSON value each.
  const answers = concatenatedJson(printed);
  assert.equal(answers.length, 4, `the curls printed four answers: ${printed}`);
  const [dynamic, atStartup, affected, events] = answers;
  assert.deepEqual(
    dynamic,
    { profile: 'dev', comment: round.changedComment },
    '/dynamic: the pushed comment',
  );
  assert.deepEqual(
    atStartup,
    { profile: 'dev', comment: round.startupComment },
    '/static: the startup value',
  );
  assert.deepEqual(affected, ['sample-dev', 'sample'], 'the webhook names the affected applications');
  assert.deepEqual(
    (events as Array<{ destination: string; commit: string }>)
      .map(({ destination, commit }) => ({ destination, commit }))
      .sort((a, b) => a.destination.localeCompare(b.destination)),
    [
      { destination: 'sample-dev:**', commit: round.commit },
      { destination: 'sample:**', commit: round.commit },
    ],
    'refresh-events lists the events the webhook sent',
  );

  const server = logs.find((l) => l.name === 'confbus-server' && l.msg.startsWith('Config server listening'));
  assert.equal(server?.uri, round.sampleRepository, 'the server serves the sample repository');
  // "both clients log Keys refreshed [...]": each one, told by the bus, moved to the new commit.
  for (const { port, changedKey } of CLIENTS) {
    const pid = clientPid(logs, port);
    const refreshed = logs.find(
      (l) =>
        l.pid === pid &&
        l.msg.startsWith('Keys refreshed [') &&
        l.trigger === 'bus' &&
        l.version === round.commit &&
        l.previousVersion !== round.commit,
    );
    assert.ok(
      refreshed,
      `the client on port ${port} logged "Keys refreshed [...]" moving to ${round.commit}`,
    );
    assert.ok(refreshed.msg.includes(changedKey), `port ${port}: ${refreshed.msg} lists ${changedKey}`);
  }
}

function clientPid(logs: readonly LogLine[], port: number): number {
  const line = logs.find(
    (l) => l.name === 'confbus-client' && l.msg === `Listening on http://127.0.0.1:${port}`,
  );
  assert.ok(line, `a sample client listened on port ${port}`);
  return line.pid;
}
