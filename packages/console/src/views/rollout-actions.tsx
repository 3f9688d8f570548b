/**
 * An operator's actions on a rollout: one button per action its status allows; the chosen one is confirmed with
 * a reason (required, kept in the decision log) and sent with the session's CSRF token. The server audits it as
 * /-/rollouts does. Viewers see why there are no buttons.
 */
import { useState } from 'preact/hooks';
import { postJson } from '../api.js';
import { ErrorBox } from '../components.js';
import type { RolloutAction, RolloutActionRequest, RolloutDetails, Session } from '../types.js';

const WHAT: Record<RolloutAction, string> = {
  pause: 'stop moving to the next wave (instances keep what they are served)',
  resume: 'carry on; the current wave bakes again in full',
  promote: 'serve B to every instance now',
  abort: 'serve A to every instance again',
  rollback: 'serve A to every instance again, as the judge would',
};

export function RolloutActions(props: {
  rollout: RolloutDetails;
  session: Session;
  /** Called once an action succeeded: the view reads the rollout again. */
  onDone: (() => void) | undefined;
}) {
  const { rollout, session } = props;
  const [chosen, setChosen] = useState<RolloutAction | undefined>();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<Error | undefined>();
  const [done, setDone] = useState<string | undefined>();
  if (session.roles !== undefined && !session.roles.includes('operator'))
    return <p class="muted">{session.user} is a viewer: moving a rollout needs the operator role.</p>;
  if (rollout.actions.length === 0) return null;

  const send = async (event: Event) => {
    event.preventDefault();
    if (chosen === undefined) return;
    setError(undefined);
    const body: RolloutActionRequest = { reason: reason.trim() };
    try {
      const answer = await postJson<RolloutDetails>(
        `rollouts/${encodeURIComponent(rollout.id)}/${chosen}`,
        body,
        { header: session.csrfHeader, token: session.csrfToken },
      );
      setDone(`${chosen}: the rollout is ${answer.status} now.`);
      setChosen(undefined);
      setReason('');
      props.onDone?.();
    } catch (failure) {
      setError(failure as Error);
    }
  };

  return (
    <div data-testid="rollout-actions">
      <div class="toolbar">
        {rollout.actions.map((action) => (
          <button
            key={action}
            type="button"
            aria-pressed={chosen === action}
            onClick={() => {
              setChosen(action);
              setDone(undefined);
            }}
          >
            {action}
          </button>
        ))}
      </div>
      {chosen ? (
        <form class="toolbar" onSubmit={(event) => void send(event)} data-testid="rollout-confirm">
          <p>
            <strong>{chosen}</strong>: {WHAT[chosen]}.
          </p>
          <label for="rollout-reason">Reason</label>
          <input
            id="rollout-reason"
            name="reason"
            required
            maxLength={500}
            value={reason}
            onInput={(event) => setReason((event.target as HTMLInputElement).value)}
          />
          <button type="submit" class="primary" disabled={reason.trim() === ''}>
            Confirm {chosen}
          </button>
          <button type="button" onClick={() => setChosen(undefined)}>
            Cancel
          </button>
        </form>
      ) : null}
      {done ? <p role="status">{done}</p> : null}
      {error ? <ErrorBox error={error} /> : null}
    </div>
  );
}
