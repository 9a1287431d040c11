import type { ApiError } from '../../api/errors.ts';
import { ErrorNote, invalidBy } from '../../components/status.tsx';

/**
 * A write-only secret (the model key, the GitHub token): the service only says whether it is set, so the
 * field starts empty, a typed value replaces the stored one, and "Remove" clears it.
 */
export function SecretField(props: {
  id: string;
  name: string;
  label: string;
  isSet: boolean;
  value: string;
  onValue: (value: string) => void;
  clear: boolean;
  onClear: (clear: boolean) => void;
  placeholderSet: string;
  placeholderUnset: string;
  stateTestId: string;
  error?: ApiError | null;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>
        {props.label}{' '}
        <span className={`secret-state ${props.isSet ? 'is-set' : ''}`} data-testid={props.stateTestId}>
          {props.isSet ? 'set' : 'not set'}
        </span>
      </label>
      <div className="row">
        <input
          id={props.id}
          name={props.name}
          type="password"
          value={props.value}
          disabled={props.clear}
          onChange={(event) => props.onValue(event.target.value)}
          placeholder={props.isSet ? props.placeholderSet : props.placeholderUnset}
          autoComplete="new-password"
          {...invalidBy(props.error, `${props.id}-error`)}
        />
        {props.isSet ? (
          <label className="inline">
            <input
              type="checkbox"
              checked={props.clear}
              onChange={(event) => props.onClear(event.target.checked)}
            />{' '}
            Remove
          </label>
        ) : null}
      </div>
      <ErrorNote error={props.error} id={`${props.id}-error`} />
    </div>
  );
}
