/**
 * Actions: a bus refresh for everything, an application, `app:profile` or one instance. Confirmed in a dialog,
 * sent with the session's CSRF token; the result (acks arriving) shows live below.
 */
import { useRef, useState } from 'preact/hooks';
import { postJson, useApi } from '../api.js';
import { ErrorBox, Loader, Section } from '../components.js';
import { link } from '../router.js';
import type { Applications, Fleet, Session } from '../types.js';
import { RefreshEventView } from './refresh-events.js';

type Target = 'all' | 'application' | 'profile' | 'instance';

interface Published {
  id: string;
  destination: string;
  commit: string;
}

export function ActionsView() {
  const session = useApi<Session>('session', {});
  const apps = useApi<Applications>('applications', { limit: 500 }, ['push']);
  const fleet = useApi<Fleet>('fleet', { limit: 500 }, ['presence']);
  const [target, setTarget] = useState<Target>('all');
  const [application, setApplication] = useState('');
  const [profile, setProfile] = useState('');
  const [instance, setInstance] = useState('');
  const [published, setPublished] = useState<Published | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const dialog = useRef<HTMLDialogElement>(null);

  const destination =
    target === 'all'
      ? 'every instance (**)'
      : target === 'application'
        ? `${application || '…'}:**`
        : target === 'profile'
          ? `${application || '…'}:${profile || '…'}:**`
          : instance || '…';

  const send = async (csrf: Session) => {
    dialog.current?.close();
    setError(undefined);
    try {
      const body = { target, application, profile, instance };
      setPublished(
        await postJson<Published>('bus-refresh', body, { header: csrf.csrfHeader, token: csrf.csrfToken }),
      );
    } catch (failure) {
      setError(failure as Error);
    }
  };

  return (
    <Loader state={session}>
      {(csrf) => (
        <>
          <Section title="Bus refresh">
            {!csrf.busEnabled ? (
              <p class="error">The bus is disabled on this server (spring.cloud.bus.enabled=false).</p>
            ) : null}
            <form
              class="stack"
              onSubmit={(event) => {
                event.preventDefault();
                dialog.current?.showModal();
              }}
            >
              <fieldset>
                <legend>Refresh</legend>
                {(['all', 'application', 'profile', 'instance'] as const).map((value) => (
                  <label key={value} class="radio">
                    <input
                      type="radio"
                      name="target"
                      value={value}
                      checked={target === value}
                      onChange={() => setTarget(value)}
                    />
                    {value === 'all'
                      ? 'everything'
                      : value === 'profile'
                        ? 'an application with a profile'
                        : `one ${value}`}
                  </label>
                ))}
              </fieldset>
              {target === 'application' || target === 'profile' ? (
                <p>
                  <label for="action-application">Application</label>
                  <select
                    id="action-application"
                    value={application}
                    onChange={(e) => setApplication((e.target as HTMLSelectElement).value)}
                  >
                    <option value="">choose…</option>
                    {(apps.data?.items ?? []).map((app) => (
                      <option key={app.name} value={app.name}>
                        {app.name}
                      </option>
                    ))}
                  </select>
                </p>
              ) : null}
              {target === 'profile' ? (
                <p>
                  <label for="action-profile">Profile</label>
                  <input
                    id="action-profile"
                    value={profile}
                    onInput={(e) => setProfile((e.target as HTMLInputElement).value.trim())}
                  />
                </p>
              ) : null}
              {target === 'instance' ? (
                <p>
                  <label for="action-instance">Instance</label>
                  <select
                    id="action-instance"
                    value={instance}
                    onChange={(e) => setInstance((e.target as HTMLSelectElement).value)}
                  >
                    <option value="">choose…</option>
                    {(fleet.data?.items ?? []).map((node) => (
                      <option key={node.id} value={node.id}>
                        {node.id}
                      </option>
                    ))}
                  </select>
                </p>
              ) : null}
              <p>
                <button type="submit" class="primary" disabled={!csrf.busEnabled}>
                  Refresh {destination}…
                </button>
              </p>
            </form>
            <dialog ref={dialog} aria-labelledby="confirm-title">
              <h2 id="confirm-title">Publish a bus refresh?</h2>
              <p>
                Every instance matching <code>{destination}</code> re-fetches its configuration now.
              </p>
              <div class="buttons">
                <button type="button" onClick={() => dialog.current?.close()}>
                  Cancel
                </button>
                <button
                  type="button"
                  class="primary"
                  data-testid="confirm-refresh"
                  onClick={() => void send(csrf)}
                >
                  Publish refresh
                </button>
              </div>
            </dialog>
            {error ? <ErrorBox error={error} /> : null}
            {published ? (
              <p role="status" data-testid="published">
                Published to <code>{published.destination}</code>.{' '}
                <a href={link(['events', published.id])}>Timeline</a>
              </p>
            ) : null}
          </Section>
          {published ? <RefreshEventView id={published.id} /> : null}
        </>
      )}
    </Loader>
  );
}
