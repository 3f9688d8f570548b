/**
 * The contract gate's holds: each application held back at its last valid commit, with every violation
 * (profiles, key, rule, file and line, contract) — never a value — and, for operators, a release ("serve this
 * head anyway"), confirmed with a reason, audited by the server.
 */
import { useState } from 'preact/hooks';
import { postJson, useApi } from '../api.js';
import { CommitId, DataTable, ErrorBox, Loader, Section, Time } from '../components.js';
import type { Hold, HoldRelease, Holds, ReleaseRequest, Session } from '../types.js';

export function HoldsView() {
  const session = useApi<Session>('session', {});
  const holds = useApi<Holds>('holds', {}, ['push', 'refresh']);
  return (
    <Loader state={session}>
      {(csrf) => (
        <Loader state={holds}>
          {(data) =>
            !data.enabled ? (
              <Section title="Contract holds">
                <p class="muted">The contract gate is off: nothing is held back.</p>
              </Section>
            ) : (
              <>
                <Section title="Contract holds">
                  {data.holds.length === 0 ? (
                    <p class="muted" data-testid="no-holds">
                      No application is held back: every contract holds at the head.
                    </p>
                  ) : (
                    data.holds.map((hold) => <HoldCard key={hold.application} hold={hold} session={csrf} />)
                  )}
                </Section>
                <Releases releases={data.releases} />
              </>
            )
          }
        </Loader>
      )}
    </Loader>
  );
}

function HoldCard({ hold, session }: { hold: Hold; session: Session }) {
  const mayRelease = session.roles === undefined || session.roles.includes('operator');
  return (
    <article class="hold" data-testid="hold" data-application={hold.application}>
      <h3>{hold.application}</h3>
      <p>
        Head <CommitId commit={hold.heldHead} /> breaks its contracts:{' '}
        {hold.servedCommit === null ? (
          <strong>no valid commit in the history walked, the head is served</strong>
        ) : (
          <>
            its clients are served <CommitId commit={hold.servedCommit} />.
          </>
        )}
      </p>
      <DataTable
        testId="violations"
        rowsLayout
        columns={['Profiles', 'Key', 'Rule', 'Problem', 'Where', 'Contract']}
      >
        {hold.violations.map((violation, index) => (
          <tr key={index}>
            <td data-label="profiles">{violation.profiles.join(', ')}</td>
            <td data-label="key">
              <code>{violation.key || '(all)'}</code>
            </td>
            <td data-label="rule">{violation.rule}</td>
            <td data-label="problem">{violation.message}</td>
            <td data-label="where">
              {violation.file === undefined
                ? '—'
                : `${violation.file}${violation.line ? `:${violation.line}` : ''}`}
            </td>
            <td data-label="contract">{violation.contract}</td>
          </tr>
        ))}
      </DataTable>
      {hold.errors.length > 0 ? (
        <ul class="warn">
          {hold.errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
      {mayRelease ? <ReleaseForm hold={hold} session={session} /> : null}
    </article>
  );
}

/** Release: the application at its held head, with a reason (required); the list reloads on success. */
function ReleaseForm({ hold, session }: { hold: Hold; session: Session }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<Error | undefined>();
  const [released, setReleased] = useState<HoldRelease | undefined>();
  const id = `release-${hold.application}`;
  const release = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const body: ReleaseRequest = { application: hold.application, commit: hold.heldHead, reason };
    try {
      const answer = await postJson<{ released: HoldRelease }>('holds/release', body, {
        header: session.csrfHeader,
        token: session.csrfToken,
      });
      setReleased(answer.released);
    } catch (failure) {
      setError(failure as Error);
    }
  };
  if (released)
    return (
      <p data-testid="released">
        Released by {released.by}: {hold.application} is served <CommitId commit={released.commit} /> now.
      </p>
    );
  return (
    <form class="toolbar" onSubmit={(event) => void release(event)}>
      <label for={id}>Reason</label>
      <input
        id={id}
        name="reason"
        required
        maxLength={500}
        value={reason}
        onInput={(event) => setReason((event.target as HTMLInputElement).value)}
      />
      <button type="submit" disabled={reason.trim() === ''}>
        Serve this head anyway
      </button>
      {error ? <ErrorBox error={error} /> : null}
    </form>
  );
}

function Releases({ releases }: { releases: HoldRelease[] }) {
  if (releases.length === 0) return null;
  return (
    <Section title="Releases">
      <DataTable testId="releases" rowsLayout columns={['When', 'Who', 'Application', 'Commit', 'Reason']}>
        {releases.map((release) => (
          <tr key={`${release.application}@${release.commit}`}>
            <td data-label="when">
              <Time iso={release.at} />
            </td>
            <td data-label="who">{release.by}</td>
            <td data-label="application">{release.application}</td>
            <td data-label="commit">
              <CommitId commit={release.commit} />
            </td>
            <td data-label="reason">{release.reason}</td>
          </tr>
        ))}
      </DataTable>
    </Section>
  );
}
