/**
 * Actions: a bus refresh for everything, an application, `app:profile` or one instance. Confirmed in a dialog,
 * sent with the session's CSRF token; the result (acks arriving) shows live below.
 */
import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { postJson, useApi } from '../api.js';
import { ErrorBox, Loader, Section } from '../components.js';
import { link } from '../router.js';
import type { Applications, Fleet, RefreshPublished, RefreshRequest, Session } from '../types.js';
import { RefreshEventView } from './refresh-events.js';

type Target = RefreshRequest['target'];

/** What the form says to refresh; the fields a target does not use are kept for when it is chosen again. */
interface RefreshChoice {
  target: Target;
  application: string;
  profile: string;
  instance: string;
}

export function ActionsView() {
  const session = useApi<Session>('session', {});
  const apps = useApi<Applications>('applications', { limit: 500 }, ['push']);
  const fleet = useApi<Fleet>('fleet', { limit: 500 }, ['presence']);
  const [choice, setChoice] = useState<RefreshChoice>({
    target: 'all',
    application: '',
    profile: '',
    instance: '',
  });
  const [published, setPublished] = useState<RefreshPublished | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const dialog = useRef<HTMLDialogElement>(null);
  const destination = destinationOf(choice);

  const send = async (csrf: Session) => {
    dialog.current?.close();
    setError(undefined);
    try {
      const { target, application, profile, instance } = choice;
      const body: RefreshRequest = { target, application, profile, instance };
      setPublished(
        await postJson<RefreshPublished>('bus-refresh', body, {
          header: csrf.csrfHeader,
          token: csrf.csrfToken,
        }),
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
            {csrf.roles !== undefined && !csrf.roles.includes('operator') ? (
              <p class="error" data-testid="viewer-note">
                {csrf.user} is a viewer: refreshing needs the operator role (the server answers 403).
              </p>
            ) : null}
            <RefreshForm
              choice={choice}
              onChange={(patch) => setChoice({ ...choice, ...patch })}
              applications={(apps.data?.items ?? []).map((app) => app.name)}
              instances={(fleet.data?.items ?? []).map((node) => node.id)}
              destination={destination}
              busEnabled={csrf.busEnabled}
              onSubmit={() => dialog.current?.showModal()}
            />
            <ConfirmDialog dialog={dialog} destination={destination} onConfirm={() => void send(csrf)} />
            {error ? <ErrorBox error={error} /> : null}
            {published ? <PublishedNote published={published} /> : null}
          </Section>
          {published ? <RefreshEventView id={published.id} /> : null}
        </>
      )}
    </Loader>
  );
}

function PublishedNote({ published }: { published: RefreshPublished }) {
  return (
    <p role="status" data-testid="published">
      Published to <code>{published.destination}</code>. <a href={link(['events', published.id])}>Timeline</a>
    </p>
  );
}

/** The destination as the confirmation shows it (`…` for what is still to choose). */
function destinationOf({ target, application, profile, instance }: RefreshChoice): string {
  if (target === 'all') return 'every instance (**)';
  if (target === 'application') return `${application || '…'}:**`;
  if (target === 'profile') return `${application || '…'}:${profile || '…'}:**`;
  return instance || '…';
}

interface RefreshFormProps {
  choice: RefreshChoice;
  onChange: (patch: Partial<RefreshChoice>) => void;
  applications: readonly string[];
  instances: readonly string[];
  destination: string;
  busEnabled: boolean;
  onSubmit: () => void;
}

/** What the target still lacks, as the form says it; undefined when it is complete. */
function missingOf({ target, application, profile, instance }: RefreshChoice): string | undefined {
  if ((target === 'application' || target === 'profile') && application === '')
    return 'Choose an application first.';
  if (target === 'profile' && profile === '') return 'Enter a profile first.';
  if (target === 'instance' && instance === '') return 'Choose an instance first.';
  return undefined;
}

/**
 * The target and what it needs (application, profile, instance); submitting opens the confirmation, unless the
 * target is incomplete (`…:**`): then the form says what is missing instead, and nothing is published.
 */
function RefreshForm({ choice, onChange, ...props }: RefreshFormProps) {
  const { target } = choice;
  const [attempted, setAttempted] = useState(false);
  const missing = attempted ? missingOf(choice) : undefined;
  return (
    <form
      class="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setAttempted(true);
        if (missingOf(choice) === undefined) props.onSubmit();
      }}
    >
      <TargetRadios target={target} onChange={(value) => onChange({ target: value })} />
      {target === 'application' || target === 'profile' ? (
        <Choice
          id="action-application"
          label="Application"
          value={choice.application}
          options={props.applications}
          onChange={(application) => onChange({ application })}
        />
      ) : null}
      {target === 'profile' ? (
        <p>
          <label for="action-profile">Profile</label>
          <input
            id="action-profile"
            value={choice.profile}
            onInput={(e) => onChange({ profile: (e.target as HTMLInputElement).value.trim() })}
          />
        </p>
      ) : null}
      {target === 'instance' ? (
        <Choice
          id="action-instance"
          label="Instance"
          value={choice.instance}
          options={props.instances}
          onChange={(instance) => onChange({ instance })}
        />
      ) : null}
      {missing ? (
        <p class="error" role="alert" id="action-missing" data-testid="action-missing">
          {missing}
        </p>
      ) : null}
      <p>
        <button type="submit" class="primary" disabled={!props.busEnabled}>
          Refresh {props.destination}…
        </button>
      </p>
    </form>
  );
}

function TargetRadios({ target, onChange }: { target: Target; onChange: (target: Target) => void }) {
  return (
    <fieldset>
      <legend>Refresh</legend>
      {(['all', 'application', 'profile', 'instance'] as const).map((value) => (
        <label key={value} class="radio">
          <input
            type="radio"
            name="target"
            value={value}
            checked={target === value}
            onChange={() => onChange(value)}
          />
          {value === 'all'
            ? 'everything'
            : value === 'profile'
              ? 'an application with a profile'
              : `one ${value}`}
        </label>
      ))}
    </fieldset>
  );
}

/** A labelled select of names, starting with "choose…". */
function Choice({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
}) {
  return (
    <p>
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        <option value="">choose…</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </p>
  );
}

/** The modal that asks before publishing. */
function ConfirmDialog({
  dialog,
  destination,
  onConfirm,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  destination: string;
  onConfirm: () => void;
}) {
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title">
      <h2 id="confirm-title">Publish a bus refresh?</h2>
      <p>
        Every instance matching <code>{destination}</code> re-fetches its configuration now.
      </p>
      <div class="buttons">
        <button type="button" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
        <button type="button" class="primary" data-testid="confirm-refresh" onClick={onConfirm}>
          Publish refresh
        </button>
      </div>
    </dialog>
  );
}
